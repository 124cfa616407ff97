import { projectedReadModel, type ProjectedReadModel } from '../../test/support/projection-spec';
import { analyticsProjection } from './analytics.projection';
import { analyticsQueries, HOUR_MS, type AnalyticsScope } from './queries';

const T0 = Date.parse('2026-05-01T10:00:00.000Z');
const iso = (s: number) => new Date(T0 + s * 1000).toISOString();

const started = (id: string, s: number, environment = 'live', channel = 'VOICE-SIP') => ({
  stream: `conversation-${id}`,
  type: 'ConversationStarted',
  data: { conversationId: id, accountId: 'acme', agentId: 'ag1', environment, channel, startedAt: iso(s) },
});
const turn = (id: string, s: number, userInput: string, citedTopic = '', extra: Record<string, unknown> = {}) => ({
  stream: `conversation-${id}`,
  type: 'TurnRecorded',
  data: {
    turnIndex: 1,
    userInput,
    userInputAt: iso(s),
    agentResponseAt: iso(s + 1),
    isSilence: false,
    isOod: citedTopic === '',
    citedTopic,
    latency: { total_s: 0.8, stages: {} },
    ...extra,
  },
});
const ended = (id: string, s: number, reason = 'user') => ({
  stream: `conversation-${id}`,
  type: 'ConversationEnded',
  data: { reason, endedAt: iso(s) },
});

describe('analytics projection', () => {
  let rm: ProjectedReadModel;
  const scope: AnalyticsScope = {
    projectId: 'ag1',
    environment: 'live',
    channels: [],
    size: 'h',
    fromMs: T0,
    toMs: T0 + HOUR_MS,
  };
  beforeEach(async () => {
    rm = await projectedReadModel(analyticsProjection);
  });
  afterEach(() => rm.close());

  it('counts an outcome once per conversation, in the bucket it started in, whatever batch its events come in', async () => {
    await rm.given(started('a', 10), turn('a', 20, 'refund please', 'Refunds'));
    await rm.given(ended('a', 4000), ended('a', 4100, 'timeout'));
    await rm.given(started('b', 30), {
      stream: 'conversation-b',
      type: 'HandoffRequested',
      data: { destination: 'desk', reason: 'x', sharedId: '', data: {} },
    });
    await rm.given(ended('b', 40, 'handoff'), started('c', 50), ended('c', 55, 'not_connected'));
    const [bucket] = await analyticsQueries({ source: () => rm.source }).buckets(scope);
    expect(bucket).toMatchObject({
      startMs: T0,
      conversations: 3,
      contained: 1,
      handoffs: 1,
      abandoned: 0,
      notConnected: 1,
      turns: 1,
      oodTurns: 0,
    });
    // conversation a's end fell in the next hour; it still counts where a started
    expect(
      await analyticsQueries({ source: () => rm.source }).buckets({
        ...scope,
        fromMs: T0 + HOUR_MS,
        toMs: T0 + 2 * HOUR_MS,
      }),
    ).toEqual([]);
  });

  it("leaves test runs' conversations out of every figure", async () => {
    await rm.given(started('TEST-1', 10), turn('TEST-1', 20, 'weather on mars'), ended('TEST-1', 30));
    const queries = analyticsQueries({ source: () => rm.source });
    expect(await queries.buckets(scope)).toEqual([]);
    expect(await queries.unanswered(scope, 50)).toEqual([]);
  });

  it('groups unanswered inputs by their normalised text and names the latest conversation; silences and greetings are not inputs', async () => {
    await rm.given(
      started('a', 10),
      turn('a', 20, 'Weather on MARS?'),
      turn('a', 25, '', '', { isSilence: true }),
      started('b', 30, 'live', 'SMS'),
      turn('b', 40, 'weather on mars'),
      turn('b', 45, 'refund', 'Refunds'),
      started('s', 50, 'sandbox'),
      turn('s', 60, 'weather on mars'),
    );
    const queries = analyticsQueries({ source: () => rm.source });
    expect(await queries.unanswered(scope, 50)).toEqual([
      { text: 'weather on mars', count: 2, lastAt: iso(40), conversationId: 'b' },
    ]);
    expect(await queries.unanswered({ ...scope, channels: ['VOICE-SIP'] }, 50)).toEqual([
      { text: 'weather on mars', count: 1, lastAt: iso(20), conversationId: 'a' },
    ]);
    expect(await queries.topTopics(scope, 10)).toEqual([{ topic: 'Refunds', turns: 1 }]);
    const rows = await queries.buckets(scope);
    // SMS, then VOICE-SIP
    expect(rows.map((r) => [r.turns, r.oodTurns])).toEqual([
      [2, 1],
      [1, 1],
    ]);
  });

  it('lists over an hourly range of several days the same as its hours would: part-days by hour, whole days by day', async () => {
    const DAY = 86_400_000;
    const at = (day: number, hour: number) => (day * DAY + hour * HOUR_MS) / 1000;
    // T0 is 10:00 on day 0: conversations at 10:00 on days 0, 1 and 2, and at 23:00 on day 2
    await rm.given(
      started('a', at(0, 0)),
      turn('a', at(0, 0) + 5, 'weather on mars', ''),
      started('b', at(1, 0)),
      turn('b', at(1, 0) + 5, 'weather on mars', ''),
      turn('b', at(1, 0) + 9, 'refund', 'Refunds'),
      started('c', at(2, 0)),
      turn('c', at(2, 0) + 5, 'weather on mars', ''),
      started('d', at(2, 13)),
      turn('d', at(2, 13) + 5, 'weather on mars', ''),
    );
    const queries = analyticsQueries({ source: () => rm.source });
    // from 09:00 on day 0 to 11:00 on day 2: a, b and c, not d
    const hourly: AnalyticsScope = { ...scope, fromMs: T0 - HOUR_MS, toMs: T0 + 2 * DAY + HOUR_MS };
    const [inputs] = await queries.unanswered(hourly, 50);
    expect(inputs).toMatchObject({ text: 'weather on mars', count: 3, conversationId: 'c' });
    expect(await queries.topTopics(hourly, 10)).toEqual([{ topic: 'Refunds', turns: 1 }]);
    // the hour rows alone say the same
    const hours = await queries.buckets(hourly);
    expect(hours.reduce((n, b) => n + b.turns, 0)).toBe(4);
  });
});
