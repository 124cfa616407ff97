import { projectedReadModel, type ProjectedReadModel } from '../../test/support/projection-spec';
import { alertSamplesProjection } from './alert-samples.projection';
import { alertSamplesQueries } from './queries';

const stream = 'conversation-c1';
const turn = (turnIndex: number, totalS: number, apiErrors: number) => ({
  stream,
  type: 'TurnRecorded',
  data: {
    turnIndex,
    latency: { total_s: totalS },
    apiErrors,
    functionErrors: 0,
    agentResponseAt: '2026-05-01T00:00:10.000Z',
  },
});

describe('alert-samples projection', () => {
  let rm: ProjectedReadModel;
  beforeEach(async () => {
    rm = await projectedReadModel(alertSamplesProjection);
  });
  afterEach(() => rm.close());

  it('given a conversation: a call, a latency per answered turn (not the greeting), its errors and its crash', async () => {
    await rm.given(
      {
        stream,
        type: 'ConversationStarted',
        data: { conversationId: 'c1', accountId: 'acme', agentId: 'ag1', startedAt: '2026-05-01T00:00:00.000Z' },
      },
      turn(0, 0.5, 0),
      turn(1, 1.25, 2),
      { stream, type: 'ConversationEnded', data: { reason: 'crash', endedAt: '2026-05-01T00:01:00.000Z' } },
    );
    expect(await rm.rows('SELECT account_id, project_id, kind, value FROM sample ORDER BY id')).toEqual([
      { account_id: 'acme', project_id: 'ag1', kind: 'call', value: 1 },
      { account_id: 'acme', project_id: 'ag1', kind: 'latency', value: 1250 },
      { account_id: 'acme', project_id: 'ag1', kind: 'api_errors', value: 2 },
      { account_id: 'acme', project_id: 'ag1', kind: 'crash', value: 1 },
    ]);
    const queries = alertSamplesQueries({ source: () => rm.source });
    const from = Date.parse('2026-05-01T00:00:00.000Z');
    const to = from + 3_600_000;
    const project = { column: 'project_id', id: 'ag1' } as const;
    expect(await queries.latencies(project, from, to)).toEqual([1250]);
    expect(await queries.turns({ column: 'account_id', id: 'acme' }, from, to)).toBe(1);
    expect(await queries.sum(project, 'api_errors', from, to)).toBe(2);
    expect(await queries.sum(project, 'function_errors', from, to)).toBe(0);
  });

  it('a call that never connected is a call, not a crash', async () => {
    await rm.given(
      {
        stream,
        type: 'ConversationStarted',
        data: { conversationId: 'c1', accountId: 'acme', agentId: 'ag1', startedAt: '2026-05-01T00:00:00.000Z' },
      },
      { stream, type: 'ConversationEnded', data: { reason: 'not_connected', endedAt: '2026-05-01T00:00:30.000Z' } },
    );
    expect(await rm.rows('SELECT kind, value FROM sample ORDER BY id')).toEqual([{ kind: 'call', value: 1 }]);
  });
});
