import { rebuildReadModel } from '../helpers/rebuild-read-model';
import { expectEnvelope, request } from '../helpers/test-app';
import {
  advanceClock,
  buildAgent,
  converse,
  ConversationsReader,
  eventually,
  issueKey,
  platformNow,
  setDataAccess,
  startConversationsFixture,
  type ConversationsFixture,
  type Params,
  type TopicSpec,
} from '../helpers/conversations-fixture';
import { withKey } from '../helpers/keys-fixtures';
import type { Json } from '../helpers/json';

/**
 * Analytics API (contract §23): figures built by a read model from the log, checked against what
 * the Conversations API says of the same conversations. Chat API conversations on the manual clock,
 * so every start, turn and end falls in a known hour; a debug chat stands for the sandbox.
 */

const HOUR = 3_600_000;
const TOPICS: TopicSpec[] = [
  { name: 'Refunds', content: 'Refunds take 5 days.', queries: ['can I get a refund', 'refund my order'] },
  { name: 'Delivery', content: 'Delivery takes 2 days.', queries: ['when will my parcel arrive', 'delivery time'] },
  {
    name: 'Goodbye',
    content: 'Goodbye!',
    queries: ['goodbye', 'bye now'],
    actions: 'end_conversation',
  },
  {
    name: 'Speak to a human',
    content: 'Putting you through.',
    queries: ['talk to a person', 'human agent please'],
    actions: 'handoff destination=desk reason="asked for a human"',
  },
];

describe('Analytics API (contract §23)', () => {
  let f: ConversationsFixture;
  let agent: string;
  let key: string;
  let hour0: number;
  const ids: Record<string, string> = {};
  const path = () => `/v1/${f.accountId}/${agent}/analytics`;
  const get = (params: Params = {}, withKeyOf = key) => {
    const qs = new URLSearchParams();
    for (const [k, v] of Object.entries(params)) for (const x of Array.isArray(v) ? v : [v]) qs.append(k, String(x));
    return request(`${f.t.url}${path()}?${qs}`, { headers: withKey(withKeyOf) });
  };
  const hours = (from: number, to: number, extra: Params = {}) =>
    get({
      granularity: 'hour',
      start_time: new Date(hour0 + from * HOUR).toISOString(),
      end_time: new Date(hour0 + to * HOUR).toISOString(),
      ...extra,
    });

  beforeAll(async () => {
    f = await startConversationsFixture('Insight Co');
    agent = await buildAgent(f, 'Shop', 'Hello, this is the shop.', TOPICS, true);
    await setDataAccess(f, agent, { response_metrics: [], show_transcripts: true });
    key = await issueKey(f, { permissions: ['conversations', 'chat'] });
    const chat = async (action: 'create' | 'respond' | 'close', body: Json) => {
      const r = await request(`${f.t.url}/v1/${f.accountId}/${agent}/chat/${action}`, {
        method: action === 'close' ? 'PUT' : 'POST',
        body,
        headers: withKey(key),
      });
      expect([200, 201, 204]).toContain(r.status);
      return r.body;
    };
    /** A Chat API conversation on live: each message `gapS` after the last, then closed unless it ended. */
    const live = async (messages: string[], gapS = 0) => {
      const id = (await chat('create', {})).conversation_id as string;
      let ended = false;
      for (const message of messages) {
        if (gapS) await advanceClock(f.t, gapS);
        ended = (await chat('respond', { conversation_id: id, message })).end_conversation === true;
      }
      if (!ended) {
        if (gapS) await advanceClock(f.t, gapS);
        await chat('close', { conversation_id: id });
      }
      return id;
    };

    // to one minute past the next hour mark: hour0
    const now = await platformNow(f.t);
    hour0 = Math.ceil(now / HOUR) * HOUR;
    await advanceClock(f.t, (hour0 + 60_000 - now) / 1000);
    ids.contained = await live(['can I get a refund', 'goodbye'], 10);
    ids.handoff = await live(['human agent please']);
    ids.abandoned = await live([], 3);
    ids.unanswered = await live(['what is the weather on mars', 'What is the WEATHER on Mars?!'], 5);
    ids.sandbox = (await converse(f, agent, ['can I get a refund'], 'sandbox')).id;
    // hour0 + 1 stays empty
    await advanceClock(f.t, 2 * 3600);
    ids.later = await live(['delivery time'], 20);
    const reader = new ConversationsReader(f, key, agent);
    await eventually(async () => {
      const r = await reader.list({ client_env: 'live', limit: 50 });
      expect(r.body.conversations).toHaveLength(5);
      expect(r.body.conversations.every((c: Json) => c.in_progress === false)).toBe(true);
    }, 10_000);
  });
  afterAll(async () => f?.close());

  it('counts each hour from the mark before start_time, empty hours present with zeros and null percentiles', async () => {
    const r = await hours(0, 3);
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ account_id: f.accountId, project_id: agent, granularity: 'hour' });
    expect(r.body.buckets.map((b: Json) => b.time)).toEqual(
      [0, 1, 2].map((h) => new Date(hour0 + h * HOUR).toISOString()),
    );
    const [first, empty, third] = r.body.buckets;
    expect(first).toMatchObject({
      conversations: 4,
      contained: 2,
      handoffs: 1,
      abandoned: 1,
      not_connected: 0,
      turns: 5,
    });
    expect(empty).toEqual({
      time: new Date(hour0 + HOUR).toISOString(),
      conversations: 0,
      contained: 0,
      handoffs: 0,
      abandoned: 0,
      not_connected: 0,
      turns: 0,
      ood_turns: 0,
      duration_s: { p50: null, p90: null },
      first_response_ms: { p50: null, p90: null },
    });
    expect(third).toMatchObject({ conversations: 1, contained: 1, turns: 1 });
    expect(r.body.totals).toMatchObject({ conversations: 5, contained: 3, handoffs: 1, abandoned: 1, turns: 6 });
  });

  it('agrees with the Conversations API on out-of-domain turns, durations and first responses', async () => {
    const reader = new ConversationsReader(f, key, agent);
    const listed = (await reader.list({ client_env: 'live', limit: 50, include_latency: true })).body.conversations;
    expect(listed).toHaveLength(5);
    const { totals } = (await hours(0, 3)).body;
    expect(totals.ood_turns).toBe(listed.reduce((n: number, c: Json) => n + c.num_ood, 0));
    const nearestRank = (values: number[], p: number) =>
      [...values].sort((a, b) => a - b)[Math.max(1, Math.ceil(p * values.length)) - 1];
    const durations = listed.map((c: Json) => c.total_duration as number);
    for (const p of [0.5, 0.9] as const) {
      const key = p === 0.5 ? 'p50' : 'p90';
      expect(totals.duration_s[key]).toBeCloseTo(
        nearestRank(durations, p),
        -Math.log10(nearestRank(durations, p) * 0.02 + 0.01),
      );
    }
    const firstResponses = listed.flatMap((c: Json) => {
      const first = c.turns.find((t: Json) => t.user_input !== '');
      return first ? [first.latency.total_s * 1000] : [];
    });
    expect(firstResponses).toHaveLength(4);
    const p50 = nearestRank(firstResponses, 0.5);
    expect(Math.abs(totals.first_response_ms.p50 - p50)).toBeLessThanOrEqual(Math.max(1, p50 * 0.011));
  });

  it('lists topics by the turns that cited them, and the unanswered inputs grouped, newest conversation named', async () => {
    const r = await hours(0, 3);
    expect(r.body.top_topics).toEqual([
      { topic: 'Delivery', turns: 1 },
      { topic: 'Goodbye', turns: 1 },
      { topic: 'Refunds', turns: 1 },
      { topic: 'Speak to a human', turns: 1 },
    ]);
    expect(r.body.unanswered).toEqual([
      {
        text: 'what is the weather on mars',
        count: 2,
        last_at: expect.any(String),
        conversation_id: ids.unanswered,
      },
    ]);
  });

  it('shows no unanswered inputs when the project hides transcripts', async () => {
    await setDataAccess(f, agent, { response_metrics: [], show_transcripts: false });
    try {
      const r = await hours(0, 3);
      expect(r.body.unanswered).toEqual([]);
      expect(r.body.totals.conversations).toBe(5);
    } finally {
      await setDataAccess(f, agent, { response_metrics: [], show_transcripts: true });
    }
  });

  it('sums days the same as hours and filters by environment and channel', async () => {
    const day = await get({
      granularity: 'day',
      start_time: new Date(hour0).toISOString(),
      end_time: new Date(hour0 + 3 * HOUR).toISOString(),
    });
    expect(day.status).toBe(200);
    const hourly = (await hours(0, 3)).body;
    const byDay = day.body.buckets.reduce((n: number, b: Json) => n + b.conversations, 0);
    expect(byDay).toBe(hourly.totals.conversations);
    expect(day.body.totals).toEqual(hourly.totals);
    expect((await hours(0, 3, { client_env: 'sandbox' })).body.totals).toMatchObject({ conversations: 1, turns: 1 });
    expect((await hours(0, 3, { channel: 'SMS' })).body.totals.conversations).toBe(0);
    expect((await hours(0, 3, { channel: ['CHAT', 'SMS'] })).body.totals.conversations).toBe(5);
  });

  it('refuses bad ranges and values with 400 in the envelope', async () => {
    const at = (h: number) => new Date(hour0 + h * HOUR).toISOString();
    const cases: Array<[Params, string]> = [
      [{ granularity: 'week' }, 'granularity'],
      [{ granularity: 'hour', start_time: at(0), end_time: at(24 * 7 + 1) }, 'end_time'],
      [{ start_time: at(0), end_time: at(24 * 93) }, 'end_time'],
      [{ start_time: at(2), end_time: at(1) }, 'start_time'],
      [{ start_time: 'yesterday' }, 'start_time'],
      [{ channel: 'FAX' }, 'channel'],
      [{ client_env: 'production' }, 'client_env'],
      [{ granularity: ['day', 'hour'] }, 'granularity'],
    ];
    for (const [params, named] of cases) {
      const r = await get(params);
      expect(expectEnvelope(r, 400).error_message).toContain(named);
    }
  });

  it('needs the conversations permission and the agent in scope', async () => {
    const noPermission = await issueKey(f, { permissions: ['agents'] });
    expect((await get({}, noPermission)).status).toBe(403);
    const other = (await f.api.createAgent('Other', 'Hi.')).agentId;
    const scoped = await issueKey(f, { permissions: ['conversations'], agents: [other] });
    expect((await get({}, scoped)).status).toBe(403);
  });

  it('reproduces every figure after a rebuild of the read model', async () => {
    const before = (await hours(0, 3)).body;
    await rebuildReadModel(f.t, 'analytics');
    expect((await hours(0, 3)).body).toEqual(before);
  });
});
