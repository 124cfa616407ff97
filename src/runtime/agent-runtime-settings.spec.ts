import type { ServedContent } from '../agents/deployment-content';
import type { RuntimeSettings } from '../agents/runtime-settings';
import { AgentRuntime } from './agent-runtime';
import { LlmClient, type Completion, type OnDelta } from './llm/llm-client';

/* The runtime with an agent's settings: threshold, fallback text, small talk, and the chunk stream. */

const served = (settings?: RuntimeSettings, extra: ServedContent['topics'] = []): ServedContent => ({
  agentId: 'ag',
  accountId: 'acc',
  deploymentId: `dep-${Math.random()}`,
  environment: 'sandbox',
  version: 1,
  greeting: 'Hello!',
  languageCode: 'en-GB',
  behavior: '',
  topics: [
    {
      id: 't1',
      name: 'Opening hours',
      content: 'We are open 9 to 5.',
      exampleQueries: ['what are your opening hours', 'when are you open'],
      actions: '',
      isActive: true,
    },
    ...extra,
  ],
  settings,
});
const input = (text: string) => ({
  text,
  state: {},
  asrLangCode: 'en-GB',
  ttsLangCode: 'en-GB',
  metadata: {},
  receivedAt: '2026-01-01T00:00:00.000Z',
  newId: () => 'id',
});
const QUESTION = 'are you open on saturday mornings for a checkup';

/** A model that cannot exist here: it "writes" its pieces through onDelta, as the real client does for a stream. */
class ScriptedModel extends LlmClient {
  constructor(private readonly pieces: string[]) {
    super({ baseUrl: 'http://127.0.0.1:9', apiKey: null, model: 'scripted', timeoutMs: 1000 });
  }
  override async complete(_m: unknown, _t: unknown, onDelta?: OnDelta): Promise<Completion> {
    for (const piece of this.pieces) {
      await new Promise((resolve) => setImmediate(resolve));
      onDelta?.(piece);
    }
    return {
      text: this.pieces.join(''),
      toolCalls: [],
      firstTokenMs: 1,
      request: { model: 'scripted', promptTokens: null, completionTokens: null, latencyMs: 1, status: 'ok' },
    };
  }
}

describe('AgentRuntime with runtime settings', () => {
  const runtime = new AgentRuntime();

  it('cites under a low threshold and falls back, with the agent’s text, under a high one', async () => {
    const low = await runtime.respond(served({ confidence_threshold: 0.05 }), input(QUESTION));
    expect(low.turn).toMatchObject({ citedTopic: 'Opening hours', isOod: false });
    const high = await runtime.respond(
      served({ confidence_threshold: 0.95, fallback_text: 'Call us.' }),
      input(QUESTION),
    );
    expect(high.turn).toMatchObject({ citedTopic: '', isOod: true, agentResponse: 'Call us.' });
  });

  it('answers small talk politely; a goodbye ends the conversation; switched off it is out of domain', async () => {
    const hi = await runtime.respond(served(), input('hello there'));
    expect(hi.turn).toMatchObject({ agentResponse: 'Hello! How can I help you today?', isOod: false });
    expect(hi.effects.ended).toBe(false);
    const bye = await runtime.respond(served(), input('ok thanks bye'));
    expect(bye.turn.currentNode).toBe('small_talk:goodbye');
    expect(bye.effects.ended).toBe(true);
    const off = await runtime.respond(served({ small_talk: false }), input('ok thanks bye'));
    expect(off.turn.isOod).toBe(true);
    expect(off.effects.ended).toBe(false);
  });

  it('lets a topic of the agent answer a goodbye it was written for', async () => {
    const goodbye = {
      id: 't2',
      name: 'Goodbye',
      content: 'See you at your appointment!',
      exampleQueries: ['bye', 'goodbye'],
      actions: 'end_conversation',
      isActive: true,
    };
    const r = await runtime.respond(served(undefined, [goodbye]), input('goodbye'));
    expect(r.turn).toMatchObject({ citedTopic: 'Goodbye', agentResponse: 'See you at your appointment!' });
    expect(r.effects.ended).toBe(true);
  });

  it('streams the model’s pieces as they come, keeps the turn whole, and times the first token', async () => {
    const model = new AgentRuntime(new ScriptedModel(['We ', 'open ', 'at 9.']));
    const { chunks, result } = model.stream(served(), input('when are you open'));
    const seen: string[] = [];
    for await (const piece of chunks) seen.push(piece);
    const turn = (await result).turn;
    expect(seen).toEqual(['We ', 'open ', 'at 9.']);
    expect(turn.agentResponse).toBe('We open at 9.');
    expect(turn.latency.stages.first_token).toBeGreaterThanOrEqual(0);
  });

  it('streams an answer without a model as one piece', async () => {
    const { chunks, result } = runtime.stream(served(), input('when are you open'));
    const seen: string[] = [];
    for await (const piece of chunks) seen.push(piece);
    expect(seen).toEqual(['We are open 9 to 5.']);
    expect((await result).turn.latency.stages.first_token).toBeUndefined();
  });

  it('records an unreachable model as a failed call and answers from retrieval', async () => {
    const unreachable = {
      model: 'm',
      promptTokens: null,
      completionTokens: null,
      latencyMs: 0,
      status: 'error' as const,
      error: 'no model endpoint is named gone',
    };
    const r = await new AgentRuntime({ clientFor: async () => ({ unavailable: unreachable }) }).respond(
      served(),
      input('when are you open'),
    );
    expect(r.turn).toMatchObject({ agentResponse: 'We are open 9 to 5.', apiErrors: 1, llmRequests: [unreachable] });
  });
});
