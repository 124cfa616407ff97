import { replayConversation } from '../../projections/conversations/queries';
import type { ConversationEvent } from '../conversations/conversation.events';
import { renderConversation, showsTurns, type Access } from './render';

const events: ConversationEvent[] = [
  {
    type: 'ConversationStarted',
    data: {
      conversationId: 'C1',
      accountId: 'acc',
      agentId: 'ag',
      deploymentId: 'd',
      version: 1,
      environment: 'live',
      channel: 'CHAT',
      fromNumber: '',
      toNumber: '',
      variantId: '',
      variantName: '',
      language: 'en-GB',
      startedAt: '2026-01-01T00:00:00.000Z',
    },
  },
  {
    type: 'TurnRecorded',
    data: {
      turnIndex: 0,
      userInput: '',
      userInputAt: '2026-01-01T00:00:00.000Z',
      agentResponse: 'Hello',
      agentResponseAt: '2026-01-01T00:00:00.000Z',
      bargeIn: false,
      isSilence: false,
      isOod: false,
      intents: [],
      entities: {},
      retrievedTopics: [],
      retrievedSources: [],
      citedTopic: '',
      currentNode: 'start',
      nodeTrace: ['start'],
      functionEvents: [],
      functionErrors: 0,
      llmRequests: [],
      apiErrors: 0,
      latency: { total_s: 0.002, stages: { retrieval: 0.001 } },
      asrLangCode: 'en-GB',
      ttsLangCode: 'en-GB',
      inputMetadata: {},
      delayedResponse: false,
    },
  },
  { type: 'MetricLogged', data: { name: 'CALL_COMPLETED', value: 'yes' } },
  { type: 'MetricLogged', data: { name: 'secret', value: 'x' } },
];
const { summary, turns } = replayConversation(events)!;
const all: Access = {
  permissions: ['conversations'],
  config: { responseMetrics: ['CALL_COMPLETED'], showTranscripts: true },
};
const v3 = { version: 'v3' as const, includeLatency: false, includeContextState: false, includeTurnMetadata: false };

describe('renderConversation', () => {
  it('v3: prefixed ids, empty strings, no state, latency and metadata only when asked', () => {
    const c = renderConversation(summary, turns, v3, all);
    expect(c).toMatchObject({
      id: 'C1',
      account_id: 'ws-acc',
      project_id: 'PROJECT-ag',
      variant_id: '',
      handoff_reason: '',
      in_progress: true,
      num_turns: 1,
      metrics: { CALL_COMPLETED: 'yes' },
    });
    expect(c).not.toHaveProperty('state');
    expect(c).not.toHaveProperty('variant_name');
    const [turn] = c.turns as Array<Record<string, unknown>>;
    expect(turn).toMatchObject({
      user_input: '',
      agent_response: 'Hello',
      translated_user_input: '',
      english_agent_response: '',
    });
    expect(turn).not.toHaveProperty('latency');
    expect(turn).not.toHaveProperty('metadata');
    const rich = renderConversation(
      summary,
      turns,
      { ...v3, includeLatency: true, includeContextState: true, includeTurnMetadata: true },
      all,
    );
    expect(rich).toHaveProperty('state');
    expect(rich).toHaveProperty('variant_name', '');
    expect((rich.turns as Array<Record<string, unknown>>)[0]).toMatchObject({
      latency: { total_s: 0.002 },
      metadata: { currentNode: 'start' },
    });
  });

  it('v1: null for empty text, state and variant_name always, no v3 turn fields', () => {
    const c = renderConversation(summary, turns, { ...v3, version: 'v1', includeLatency: true }, all);
    expect(c).toMatchObject({ variant_id: null, handoff_reason: null, variant_name: null, state: {} });
    const [turn] = c.turns as Array<Record<string, unknown>>;
    expect(turn.user_input).toBeNull();
    expect(turn).not.toHaveProperty('latency');
    expect(turn).not.toHaveProperty('translated_user_input');
  });

  it('applies the permission x configuration table', () => {
    expect(renderConversation(summary, turns, v3, { ...all, permissions: ['handoff'] })).toEqual({
      id: 'C1',
      account_id: 'ws-acc',
      project_id: 'PROJECT-ag',
      started_at: '2026-01-01T00:00:00.000Z',
    });
    const closed = renderConversation(summary, null, v3, {
      permissions: ['conversations'],
      config: { responseMetrics: [], showTranscripts: false },
    });
    expect(closed).toMatchObject({ turns: [], num_turns: 1, metrics: {} });
    expect(
      showsTurns({ permissions: ['conversations'], config: { responseMetrics: [], showTranscripts: false } }),
    ).toBe(false);
    expect(showsTurns({ permissions: [], config: { responseMetrics: [], showTranscripts: true } })).toBe(false);
    expect(showsTurns(all)).toBe(true);
  });
});
