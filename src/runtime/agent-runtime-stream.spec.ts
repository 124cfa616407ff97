import type { ServedContent } from '../agents/deployment-content';
import { AgentRuntime, type TurnInput } from './agent-runtime';
import { LlmClient, type ChatMessage, type Completion, type OnDelta } from './llm/llm-client';

/* The chunk stream of a model's tool round trip: what a channel that speaks while the model writes (voice) reads. */

const served: ServedContent = {
  agentId: 'ag',
  accountId: 'acc',
  deploymentId: 'dep-stream',
  environment: 'sandbox',
  version: 1,
  greeting: 'Hello!',
  languageCode: 'en-GB',
  behavior: '',
  topics: [],
  tools: [
    {
      id: 'tool-1',
      name: 'order_status',
      description: 'Looks an order up',
      url: 'https://tools.example.com/status',
      method: 'POST',
      parameters: { type: 'object', properties: { order: { type: 'string' } } },
      headers: { sealed: '', digest: '' },
      timeoutMs: 1000,
    },
  ],
};
const input: TurnInput = {
  text: 'where is my order A-9',
  state: {},
  asrLangCode: 'en-GB',
  ttsLangCode: 'en-GB',
  metadata: {},
  receivedAt: '2026-01-01T00:00:00.000Z',
  newId: () => 'id',
};
const ok = { model: 'scripted', promptTokens: null, completionTokens: null, latencyMs: 1, status: 'ok' as const };

/**
 * A model that cannot exist here: asked, it writes "Let me check." as a stream and calls the tool;
 * given the tool's answer, it answers whole (a server that sent one JSON body) or in `pieces`.
 */
class RoundTripModel extends LlmClient {
  constructor(private readonly pieces: string[] | null) {
    super({ baseUrl: 'http://127.0.0.1:9', apiKey: null, model: 'scripted', timeoutMs: 1000 });
  }
  override async complete(messages: ChatMessage[], _t: unknown, onDelta?: OnDelta): Promise<Completion> {
    if (messages.at(-1)!.role !== 'tool') {
      onDelta?.('Let me check.');
      const toolCalls = [{ id: 'call_1', name: 'order_status', args: { order: 'A-9' } }];
      return { text: 'Let me check.', toolCalls, firstTokenMs: 1, request: ok };
    }
    for (const piece of this.pieces ?? []) {
      await new Promise((resolve) => setImmediate(resolve));
      onDelta?.(piece);
    }
    return { text: 'It ships on Monday.', toolCalls: [], firstTokenMs: this.pieces ? 1 : null, request: ok };
  }
}

async function streamOf(model: RoundTripModel) {
  const { chunks, result } = new AgentRuntime(model).stream(served, input);
  const seen: string[] = [];
  for await (const piece of chunks) seen.push(piece);
  return { seen, turn: (await result).turn };
}

describe('AgentRuntime.stream over a tool round trip', () => {
  it('streams the final answer after the words before the tool call, and records what streamed', async () => {
    const { seen, turn } = await streamOf(new RoundTripModel(['It ships ', 'on Monday.']));
    expect(seen).toEqual(['Let me check.', ' It ships ', 'on Monday.']);
    expect(turn.agentResponse).toBe('Let me check. It ships on Monday.');
    expect(turn.llmRequests).toHaveLength(2);
    expect(turn.functionErrors).toBe(1); // no tool caller here: the call is a function error, the answer goes on
  });

  it('sends the rest of the answer when the final answer came whole', async () => {
    const { seen, turn } = await streamOf(new RoundTripModel(null));
    expect(seen).toEqual(['Let me check.', ' It ships on Monday.']);
    expect(seen.join('')).toBe(turn.agentResponse);
  });
});
