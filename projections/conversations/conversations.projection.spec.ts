import type { TurnData } from '../../src/conversations/conversation.events';
import { projectedReadModel, type ProjectedReadModel } from '../../test/support/projection-spec';
import { conversationsProjection } from './conversations.projection';
import { SqliteConversationsRepository } from './sqlite-queries';

const stream = 'conversation-c1';
const at = (second: number) => `2026-05-01T00:00:${String(second).padStart(2, '0')}.000Z`;

const turn = (turnIndex: number, userInput: string, agentResponse: string): TurnData => ({
  turnIndex,
  userInput,
  userInputAt: at(turnIndex * 2),
  agentResponse,
  agentResponseAt: at(turnIndex * 2 + 1),
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
  latency: { total_s: 0.5, stages: {} },
  asrLangCode: 'en-GB',
  ttsLangCode: 'en-GB',
  inputMetadata: {},
  delayedResponse: false,
});

describe('conversations projection', () => {
  let rm: ProjectedReadModel;
  beforeEach(async () => {
    rm = await projectedReadModel(conversationsProjection);
  });
  afterEach(() => rm.close());

  it('given a conversation with turns and an end: one summary row, its turns, and the turns in the search index', async () => {
    await rm.given(
      {
        stream,
        type: 'ConversationStarted',
        data: {
          conversationId: 'c1',
          accountId: 'acme',
          agentId: 'ag1',
          deploymentId: 'd1',
          version: 1,
          environment: 'live',
          channel: 'CHAT',
          fromNumber: '',
          toNumber: '',
          variantId: 'v1',
          variantName: 'main',
          language: 'en-GB',
          startedAt: at(0),
        },
      },
      { stream, type: 'TurnRecorded', data: turn(0, '', 'Hello, how can I help?') },
      { stream, type: 'TurnRecorded', data: turn(1, 'When are you opening?', 'We open at nine.') },
    );
    expect(await rm.rows('SELECT id, agent_id, in_progress, num_turns FROM conversation')).toEqual([
      { id: 'c1', agent_id: 'ag1', in_progress: 1, num_turns: 2 },
    ]);
    await rm.given({ stream, type: 'ConversationEnded', data: { reason: 'user', endedAt: at(9) } });
    expect(await rm.rows('SELECT in_progress FROM conversation')).toEqual([{ in_progress: 0 }]);
    // the FTS triggers index each turn as it is inserted (Porter stemming: "opens" finds "opening")
    expect(await rm.rows("SELECT rowid FROM turn_fts WHERE turn_fts MATCH 'opens'")).toHaveLength(1);
    const queries = new SqliteConversationsRepository(() => rm.source);
    expect((await queries.one('ag1', 'c1'))?.endedAt).toBe(at(9));
    expect((await queries.turns('c1', false)).map((t) => t.agentResponse)).toEqual([
      'Hello, how can I help?',
      'We open at nine.',
    ]);
  });

  it('given a call that never connected: an ended conversation with no turn, its outcome in state', async () => {
    const call = 'conversation-OUT-1';
    await rm.given(
      {
        stream: call,
        type: 'ConversationStarted',
        data: {
          conversationId: 'OUT-1',
          accountId: 'acme',
          agentId: 'ag1',
          deploymentId: 'd1',
          version: 1,
          environment: 'sandbox',
          channel: 'VOICE-SIP',
          fromNumber: '+15550100001',
          toNumber: '+15005550002',
          variantId: '',
          variantName: '',
          language: 'en-GB',
          startedAt: at(0),
        },
      },
      { stream: call, type: 'StateChanged', data: { changes: { call_status: 'failure', failure_reason: 'busy' } } },
      { stream: call, type: 'ConversationEnded', data: { reason: 'not_connected', endedAt: at(3) } },
    );
    expect(await rm.rows('SELECT id, in_progress, num_turns FROM conversation')).toEqual([
      { id: 'OUT-1', in_progress: 0, num_turns: 0 },
    ]);
    const queries = new SqliteConversationsRepository(() => rm.source);
    expect(await queries.one('ag1', 'OUT-1')).toMatchObject({
      endedAt: at(3),
      endReason: 'not_connected',
      numTurns: 0,
      state: { call_status: 'failure', failure_reason: 'busy' },
    });
    expect(await queries.turns('OUT-1', false)).toEqual([]);
  });
});
