import type { ConversationEvent, TurnData } from '../../src/conversations/conversation.events';
import { evolveSummary, platformDurationS, replayConversation, totalDurationS } from './conversation-view';

const started: ConversationEvent = {
  type: 'ConversationStarted',
  data: {
    conversationId: 'C1',
    accountId: 'a',
    agentId: 'g',
    deploymentId: 'd',
    version: 1,
    environment: 'sandbox',
    channel: 'CHAT',
    fromNumber: '',
    toNumber: '',
    variantId: '',
    variantName: '',
    language: 'en-GB',
    startedAt: '2026-01-01T00:00:00.000Z',
  },
};

function turn(turnIndex: number, at: string, extra: Partial<TurnData> = {}): ConversationEvent {
  return {
    type: 'TurnRecorded',
    data: {
      turnIndex,
      userInput: turnIndex ? 'hi' : '',
      userInputAt: at,
      agentResponse: 'hello',
      agentResponseAt: at,
      bargeIn: false,
      isSilence: false,
      isOod: false,
      intents: [],
      entities: {},
      retrievedTopics: [],
      retrievedSources: [],
      citedTopic: '',
      currentNode: '',
      nodeTrace: [],
      functionEvents: [],
      functionErrors: 0,
      llmRequests: [],
      apiErrors: 0,
      latency: { total_s: 0.001, stages: { retrieval: 0.001 } },
      asrLangCode: 'en-GB',
      ttsLangCode: 'en-GB',
      inputMetadata: {},
      delayedResponse: false,
      ...extra,
    },
  };
}

describe('conversation view', () => {
  it('ignores events before the start', () => {
    expect(evolveSummary(null, turn(0, '2026-01-01T00:00:00.000Z'))).toBeNull();
  });

  it('folds turns, counts, state, metrics, handoff and end', () => {
    const events: ConversationEvent[] = [
      started,
      { type: 'StateChanged', data: { changes: { a: 1 } } },
      turn(0, '2026-01-01T00:00:00.000Z'),
      turn(1, '2026-01-01T00:00:10.000Z', { isOod: true }),
      turn(2, '2026-01-01T00:00:20.000Z', { isSilence: true }),
      { type: 'MetricLogged', data: { name: 'm', value: '1' } },
      { type: 'MetricLogged', data: { name: 'm', value: '2' } },
      { type: 'StateChanged', data: { changes: { b: 2 } } },
      {
        type: 'HandoffRequested',
        data: {
          destination: 'billing',
          reason: 'refund',
          sharedId: 'S1',
          data: { reason: 'refund', destination: 'billing', shared_id: 'S1' },
        },
      },
      { type: 'ConversationEnded', data: { reason: 'handoff', endedAt: '2026-01-01T00:01:00.000Z' } },
    ];
    const { summary, turns } = replayConversation(events)!;
    expect(summary).toMatchObject({
      id: 'C1',
      numTurns: 3,
      numOod: 1,
      numSilences: 1,
      state: { a: 1, b: 2 },
      handoffReason: 'refund',
      handoffDestination: 'billing',
      sharedId: 'S1',
      endedAt: '2026-01-01T00:01:00.000Z',
      endReason: 'handoff',
    });
    expect(summary.metrics).toEqual([
      { name: 'm', value: '1' },
      { name: 'm', value: '2' },
    ]);
    expect(turns.map((t) => t.turnIndex)).toEqual([0, 1, 2]);
    expect(totalDurationS(summary)).toBe(60);
    // the platform's part ended at the handoff turn
    expect(platformDurationS(summary)).toBe(20);
  });

  it('a prefix of the stream is the conversation as it was then', () => {
    const then = replayConversation([started, turn(0, '2026-01-01T00:00:00.000Z')])!;
    expect(then.summary.numTurns).toBe(1);
    expect(then.summary.endedAt).toBeNull();
    expect(totalDurationS(then.summary)).toBe(0);
  });

  it('keeps the post-call analysis, which changes no time or count', () => {
    const ended: ConversationEvent = {
      type: 'ConversationEnded',
      data: { reason: 'user', endedAt: '2026-01-01T00:01:00.000Z' },
    };
    const data = {
      outcome: 'contained' as const,
      topics: ['Refunds'],
      summary: 'The user asked: hi',
      fields: { resolved: true, reason: null },
      analyser: 'model' as const,
    };
    const before = replayConversation([started, turn(0, '2026-01-01T00:00:00.000Z'), ended])!.summary;
    expect(before.analysis).toBeNull();
    const after = evolveSummary(before, { type: 'ConversationAnalysed', data })!;
    expect(after).toEqual({ ...before, analysis: data });
  });
});
