import { expectEnvelope, type JsonResponse } from './helpers/test-app';
import {
  advanceClock,
  buildAgent,
  converse,
  ConversationsReader,
  eventually,
  foreignAccount,
  ISO_MS,
  isoPlus,
  issueKey,
  platformNow,
  setDataAccess,
  startChat,
  type ConversationsFixture,
  type Params,
  type TopicSpec,
  startConversationsFixture,
} from './helpers/conversations-fixture';
import type { Json } from './helpers/json';

/**
 * Conversations API (interface.md "Conversations API", "Conversation", "Turn", "Versioning";
 * contract §4 data access, §8). Conversations are made through debug chat (channel CHAT) on the
 * manual test clock, so every started_at and turn time is known exactly.
 */

const GREETING = 'Hello, this is Acme support.';
const REFUNDS = 'Refunds are paid back to your card within 5 working days.';
const DELIVERY = 'Standard delivery takes 2 to 3 days.';
const TOPICS: TopicSpec[] = [
  {
    name: 'Refunds',
    content: REFUNDS,
    queries: ['can I get a refund', 'refund my order', 'money back'],
    actions: 'log_metric name=refund_asked value=yes',
  },
  {
    name: 'Delivery',
    content: DELIVERY,
    queries: ['when will my parcel arrive', 'delivery time', 'shipping'],
    actions: 'set_state key=topic value=delivery\nlog_metric name=delivery_q value=1',
  },
  {
    name: 'Speak to a human',
    content: 'Let me put you through to a colleague.',
    queries: ['talk to a person', 'human agent please'],
    actions:
      'set_state key=tier value=gold\nlog_metric name=CSAT value=5\nhandoff destination=billing-queue reason="asked for a human" keys=tier',
  },
];

/** The sandbox conversations of the main agent, oldest first, started 10 s apart. */
const SANDBOX: Array<{ name: string; messages: string[]; gapS?: number }> = [
  { name: 'C1', messages: ['can I get a refund'] },
  { name: 'C2', messages: ['when will my parcel arrive', 'delivery time please'], gapS: 2 },
  { name: 'C3', messages: ['I want to talk to a person'] },
  { name: 'C4', messages: ['what is the weather on mars tomorrow'] },
  { name: 'C5', messages: [''] },
  { name: 'C6', messages: [] },
  { name: 'C7', messages: ['human agent please'] },
];
const ENDED = ['C3', 'C7'];
const FULL_ACCESS = { response_metrics: ['refund_asked', 'delivery_q', 'CSAT'], show_transcripts: true };

const V3_FIELDS = [
  'id',
  'account_id',
  'project_id',
  'variant_id',
  'environment',
  'started_at',
  'channel',
  'from_number',
  'to_number',
  'in_progress',
  'num_turns',
  'total_duration',
  'polyai_duration',
  'handoff',
  'handoff_reason',
  'handoff_destination',
  'num_silences',
  'num_ood',
  'metrics',
  'turns',
];
const TURN_FIELDS = [
  'user_input',
  'user_input_datetime',
  'barge_in',
  'agent_response',
  'agent_response_datetime',
  'intents',
  'entities',
  'is_ood',
  'is_silence',
];
const BASIC_FIELDS = ['account_id', 'id', 'project_id', 'started_at'];

const bareOf = (id: string) => id.replace(/^(ws-|PROJECT-)/, '');

/** Asserts 400 in the envelope with an error_message naming `param`. */
function expect400Naming(r: JsonResponse, ...params: string[]) {
  const body = expectEnvelope(r, 400);
  expect(body.success).toBe(false);
  const message: string = body.error_message;
  if (params.length === 1) expect(message).toContain(params[0]);
  else expect(params.some((p) => message.includes(p))).toBe(true);
}

describe('Conversations API (interface.md, contract §8)', () => {
  let f: ConversationsFixture;
  let agentA: string;
  let agentB: string;
  /** conversations key, all agents */
  let reader: ConversationsReader;
  const ids: Record<string, string> = {};
  const startedAt: Record<string, string> = {};
  /** sandbox ids newest first */
  let sandboxNewestFirst: string[];
  const sandbox = (params: Params = {}) => reader.ids({ client_env: 'sandbox', limit: 50, ...params });

  beforeAll(async () => {
    f = await startConversationsFixture();
    agentA = await buildAgent(f, 'Acme support', GREETING, TOPICS, true);
    agentB = (await f.api.createAgent('Other bot', 'Hi from B.')).agentId;
    await setDataAccess(f, agentA, FULL_ACCESS);
    reader = new ConversationsReader(f, await issueKey(f, { permissions: ['conversations'] }), agentA);

    for (const spec of SANDBOX) {
      await advanceClock(f.t, 10);
      startedAt[spec.name] = new Date(await platformNow(f.t)).toISOString();
      const { id, replies } = await converse(f, agentA, spec.messages, 'sandbox', spec.gapS ?? 0);
      ids[spec.name] = id;
      // preconditions on what the agent did (debug chat, contract §6)
      if (spec.name === 'C1') expect(replies[0].metadata.citedTopic).toBe('Refunds');
      if (spec.name === 'C2') expect(replies.map((r) => r.metadata.citedTopic)).toEqual(['Delivery', 'Delivery']);
      if (ENDED.includes(spec.name)) expect(replies[replies.length - 1].conversationEnded).toBe(true);
    }
    await advanceClock(f.t, 10);
    startedAt.L1 = new Date(await platformNow(f.t)).toISOString();
    ids.L1 = (await converse(f, agentA, ['can I get a refund'], 'live')).id;
    await advanceClock(f.t, 10);
    startedAt.P1 = new Date(await platformNow(f.t)).toISOString();
    ids.P1 = (await converse(f, agentA, [], 'pre-release')).id;
    sandboxNewestFirst = SANDBOX.map((s) => ids[s.name]).reverse();

    // the read model is eventually consistent: wait until it shows the final state of each
    await eventually(async () => {
      const r = await reader.list({ client_env: 'sandbox', limit: 50 });
      expect(r.status).toBe(200);
      const byId = new Map<string, Json>(r.body.conversations.map((c: Json) => [c.id, c]));
      for (const spec of SANDBOX) {
        const c = byId.get(ids[spec.name]);
        expect(c).toBeDefined();
        expect(c.num_turns).toBe(spec.messages.length + 1);
        expect(c.turns).toHaveLength(spec.messages.length + 1);
        expect(c.in_progress).toBe(!ENDED.includes(spec.name));
      }
      expect(await reader.ids({ client_env: 'live' })).toEqual([ids.L1]);
      expect(await reader.ids({ client_env: 'pre-release' })).toEqual([ids.P1]);
    }, 5000);
  });
  afterAll(async () => f?.close());

  describe('listing and the conversation object', () => {
    it("lists the project's conversations newest first, with cursor and next_offset null at the end", async () => {
      const r = await reader.list({ client_env: 'sandbox', limit: 50 });
      expect(r.status).toBe(200);
      expect(r.body.conversations.map((c: Json) => c.id)).toEqual(sandboxNewestFirst);
      expect(r.body.cursor).toBeNull();
      expect(r.body.next_offset).toBeNull();
      const times = r.body.conversations.map((c: Json) => c.started_at);
      expect(times).toEqual(SANDBOX.map((s) => startedAt[s.name]).reverse());
    });

    it('has every v3 field, with empty strings (never null) for empty text, and no state or variant_name by default', async () => {
      const r = await reader.list({ client_env: 'sandbox', limit: 50 });
      for (const c of r.body.conversations) {
        for (const field of V3_FIELDS) expect(c).toHaveProperty(field);
        expect(c).not.toHaveProperty('state');
        expect(c).not.toHaveProperty('variant_name');
      }
      const c1 = r.body.conversations.find((c: Json) => c.id === ids.C1);
      expect(c1).toMatchObject({
        id: ids.C1,
        account_id: f.accountId,
        project_id: agentA,
        variant_id: '',
        environment: 'sandbox',
        started_at: startedAt.C1,
        channel: 'CHAT',
        from_number: '',
        to_number: '',
        in_progress: true,
        num_turns: 2,
        handoff: false,
        handoff_reason: '',
        handoff_destination: '',
        num_silences: 0,
        num_ood: 0,
        metrics: { refund_asked: 'yes' },
      });
      expect(c1.account_id).toMatch(/^ws-/);
      expect(c1.project_id).toMatch(/^PROJECT-/);
      expect(c1.started_at).toMatch(ISO_MS);
      expect(typeof c1.total_duration).toBe('number');
      expect(typeof c1.polyai_duration).toBe('number');
      expect(c1.total_duration).toBeGreaterThanOrEqual(0);
    });

    it('returns one conversation with every turn, the greeting as turn 0', async () => {
      const r = await reader.one(ids.C2);
      expect(r.status).toBe(200);
      const c = r.body;
      expect(c).toMatchObject({
        id: ids.C2,
        project_id: agentA,
        account_id: f.accountId,
        environment: 'sandbox',
        num_turns: 3,
        in_progress: true,
      });
      expect(c).not.toHaveProperty('state');
      expect(c.turns).toHaveLength(3);
      for (const turn of c.turns) {
        for (const field of TURN_FIELDS) expect(turn).toHaveProperty(field);
        expect(turn).toMatchObject({
          barge_in: false,
          is_ood: false,
          is_silence: false,
          translated_user_input: '',
          english_agent_response: '',
        });
        expect(Array.isArray(turn.intents)).toBe(true);
        expect(typeof turn.entities).toBe('object');
        expect(turn.user_input_datetime).toMatch(ISO_MS);
        expect(turn.agent_response_datetime).toMatch(ISO_MS);
        expect(turn).not.toHaveProperty('latency');
        expect(turn).not.toHaveProperty('metadata');
      }
      expect(c.turns[0]).toMatchObject({ user_input: '', agent_response: GREETING, user_input_datetime: startedAt.C2 });
      expect(c.turns[1]).toMatchObject({
        user_input: 'when will my parcel arrive',
        agent_response: DELIVERY,
        user_input_datetime: isoPlus(startedAt.C2, 2),
      });
      expect(c.turns[2]).toMatchObject({
        user_input: 'delivery time please',
        agent_response: DELIVERY,
        user_input_datetime: isoPlus(startedAt.C2, 4),
      });
    });

    it('reports a metric logged more than once as an array of strings', async () => {
      const c = (await reader.one(ids.C2)).body;
      expect(c.metrics).toEqual({ delivery_q: ['1', '1'] });
    });

    it('reports a handoff: handoff, reason, destination, no longer in progress', async () => {
      const c = (await reader.one(ids.C3)).body;
      expect(c).toMatchObject({
        in_progress: false,
        handoff: true,
        handoff_reason: 'asked for a human',
        handoff_destination: 'billing-queue',
        num_turns: 2,
      });
      expect(c.metrics).toEqual({ CSAT: '5' });
      expect(c.turns[1]).toMatchObject({
        user_input: 'I want to talk to a person',
        agent_response: 'Let me put you through to a colleague.',
      });
    });

    it('counts out-of-domain and silent turns', async () => {
      const ood = (await reader.one(ids.C4)).body;
      expect(ood).toMatchObject({ num_ood: 1, num_silences: 0 });
      expect(ood.turns[1]).toMatchObject({
        user_input: 'what is the weather on mars tomorrow',
        is_ood: true,
        is_silence: false,
      });
      const silent = (await reader.one(ids.C5)).body;
      expect(silent).toMatchObject({ num_ood: 0, num_silences: 1 });
      expect(silent.turns[1]).toMatchObject({ user_input: '', is_silence: true });
      const greetingOnly = (await reader.one(ids.C6)).body;
      expect(greetingOnly).toMatchObject({ num_turns: 1, num_ood: 0, num_silences: 0, metrics: {} });
    });

    it("answers 404 in the envelope for an unknown conversation and for another project's conversation", async () => {
      expectEnvelope(await reader.one('AS_CHAT_00000000-0000-0000-0000-000000000000'), 404);
      expectEnvelope(await reader.one('no-such-conversation'), 404);
      expectEnvelope(await reader.one(ids.C1, {}, { project: agentB }), 404);
      expect(await reader.ids({ client_env: 'sandbox', limit: 50 }, { project: agentB })).toEqual([]);
    });

    it('accepts ws-<id> or the bare account and PROJECT-<id> or the bare project in the path', async () => {
      for (const account of [f.accountId, bareOf(f.accountId)]) {
        for (const project of [agentA, bareOf(agentA)]) {
          expect(await reader.ids({ client_env: 'sandbox', limit: 50 }, { account, project })).toEqual(
            sandboxNewestFirst,
          );
          const one = await reader.one(ids.C1, {}, { account, project });
          expect(one.status).toBe(200);
          expect(one.body).toMatchObject({ id: ids.C1, account_id: f.accountId, project_id: agentA });
        }
      }
    });
  });

  describe('filters', () => {
    it('client_env: live by default; sandbox, pre-release and live each list only their own', async () => {
      const byDefault = await reader.list();
      expect(byDefault.status).toBe(200);
      expect(byDefault.body.conversations.map((c: Json) => c.id)).toEqual([ids.L1]);
      expect(byDefault.body.conversations[0]).toMatchObject({
        environment: 'live',
        started_at: startedAt.L1,
        num_turns: 2,
      });
      expect(await reader.ids({ client_env: 'live' })).toEqual([ids.L1]);
      const pre = await reader.list({ client_env: 'pre-release' });
      expect(pre.body.conversations.map((c: Json) => [c.id, c.environment])).toEqual([[ids.P1, 'pre-release']]);
      const sb = await reader.list({ client_env: 'sandbox', limit: 50 });
      expect(sb.body.conversations.every((c: Json) => c.environment === 'sandbox')).toBe(true);
      expect(sb.body.conversations).toHaveLength(7);
    });

    it('in_progress=true lists active conversations, in_progress=false finished ones', async () => {
      const active = SANDBOX.filter((s) => !ENDED.includes(s.name))
        .map((s) => ids[s.name])
        .reverse();
      const finished = SANDBOX.filter((s) => ENDED.includes(s.name))
        .map((s) => ids[s.name])
        .reverse();
      expect(await sandbox({ in_progress: 'true' })).toEqual(active);
      expect(await sandbox({ in_progress: 'false' })).toEqual(finished);
      const r = await reader.list({ client_env: 'sandbox', limit: 50, in_progress: 'false' });
      expect(r.body.conversations.every((c: Json) => c.in_progress === false && c.handoff === true)).toBe(true);
    });

    it('channel is repeatable: one value, several values, an unused channel', async () => {
      expect(await sandbox({ channel: 'CHAT' })).toEqual(sandboxNewestFirst);
      expect(await sandbox({ channel: 'VOICE-SIP' })).toEqual([]);
      expect(await sandbox({ channel: 'WEBCHAT' })).toEqual([]);
      expect(await sandbox({ channel: ['VOICE-SIP', 'CHAT'] })).toEqual(sandboxNewestFirst);
      expect(await sandbox({ channel: ['VOICE-SIP', 'WEBCHAT'] })).toEqual([]);
    });

    it('variant_id and variant_name filter (no conversation runs a named variant)', async () => {
      expect(await sandbox({ variant_id: 'variant-b' })).toEqual([]);
      expect(await sandbox({ variant_name: 'Summer promo' })).toEqual([]);
    });

    it('start_time and end_time bound started_at, alone or together', async () => {
      expect(await sandbox({ start_time: isoPlus(startedAt.C3, -5), end_time: isoPlus(startedAt.C5, 5) })).toEqual([
        ids.C5,
        ids.C4,
        ids.C3,
      ]);
      expect(await sandbox({ start_time: isoPlus(startedAt.C6, -5) })).toEqual([ids.C7, ids.C6]);
      expect(await sandbox({ end_time: isoPlus(startedAt.C2, 5) })).toEqual([ids.C2, ids.C1]);
      expect(await sandbox({ start_time: isoPlus(startedAt.C7, 5) })).toEqual([]);
      expect(await sandbox({ end_time: isoPlus(startedAt.C1, -5) })).toEqual([]);
    });

    it('start_time accepts an ISO 8601 time with a UTC offset', async () => {
      const utc = new Date(Date.parse(startedAt.C6) - 5000);
      const plusTwo = new Date(utc.getTime() + 2 * 3600 * 1000).toISOString().replace(/\.\d{3}Z$/, '+02:00');
      expect(await sandbox({ start_time: plusTwo })).toEqual([ids.C7, ids.C6]);
    });

    it('filters combine: time range, in_progress and channel together', async () => {
      expect(
        await sandbox({
          start_time: isoPlus(startedAt.C2, -5),
          end_time: isoPlus(startedAt.C6, 5),
          in_progress: 'true',
          channel: 'CHAT',
        }),
      ).toEqual([ids.C6, ids.C5, ids.C4, ids.C2]);
      expect(
        await sandbox({
          start_time: isoPlus(startedAt.C2, -5),
          end_time: isoPlus(startedAt.C6, 5),
          in_progress: 'false',
        }),
      ).toEqual([ids.C3]);
    });
  });

  describe('offset pagination', () => {
    it('default limit is 5, with next_offset 5', async () => {
      const r = await reader.list({ client_env: 'sandbox' });
      expect(r.status).toBe(200);
      expect(r.body.conversations.map((c: Json) => c.id)).toEqual(sandboxNewestFirst.slice(0, 5));
      expect(r.body.next_offset).toBe(5);
    });

    it('walks pages of 3 with offset and next_offset, null at the end', async () => {
      const pages: string[][] = [];
      const nextOffsets: Array<number | null> = [];
      let offset: number | null = 0;
      while (offset !== null) {
        const r = await reader.list({ client_env: 'sandbox', limit: 3, offset });
        expect(r.status).toBe(200);
        pages.push(r.body.conversations.map((c: Json) => c.id));
        nextOffsets.push(r.body.next_offset);
        offset = r.body.next_offset;
        if (pages.length > 5) throw new Error('next_offset never became null');
      }
      expect(pages).toEqual([
        sandboxNewestFirst.slice(0, 3),
        sandboxNewestFirst.slice(3, 6),
        sandboxNewestFirst.slice(6),
      ]);
      expect(nextOffsets).toEqual([3, 6, null]);
    });

    it('an offset past the end lists nothing; limit 1 and limit 5000 are accepted', async () => {
      const past = await reader.list({ client_env: 'sandbox', offset: 20 });
      expect(past.status).toBe(200);
      expect(past.body).toMatchObject({ conversations: [], next_offset: null, cursor: null });
      const one = await reader.list({ client_env: 'sandbox', limit: 1, offset: 2 });
      expect(one.body.conversations.map((c: Json) => c.id)).toEqual([sandboxNewestFirst[2]]);
      expect(one.body.next_offset).toBe(3);
      const all = await reader.list({ client_env: 'sandbox', limit: 5000 });
      expect(all.body.conversations.map((c: Json) => c.id)).toEqual(sandboxNewestFirst);
      expect(all.body.next_offset).toBeNull();
      expect(all.body.cursor).toBeNull();
    });
  });

  describe('include_* flags', () => {
    it('include_latency=true adds latency {total_s, stages: {retrieval, generation, actions}} to every turn', async () => {
      for (const r of [
        await reader.one(ids.C2, { include_latency: 'true' }),
        await reader.list({ client_env: 'sandbox', limit: 50, include_latency: 'true' }),
      ]) {
        expect(r.status).toBe(200);
        const conversations = r.body.conversations ?? [r.body];
        const turns = conversations.flatMap((c: Json) => c.turns);
        expect(turns.length).toBeGreaterThan(0);
        for (const turn of turns) {
          expect(typeof turn.latency.total_s).toBe('number');
          for (const stage of ['retrieval', 'generation', 'actions'])
            expect(typeof turn.latency.stages[stage]).toBe('number');
          expect(turn.latency.total_s).toBeGreaterThanOrEqual(0);
        }
      }
      const off = await reader.one(ids.C2, { include_latency: 'false' });
      expect(off.body.turns.some((turn: Json) => 'latency' in turn)).toBe(false);
    });

    it('include_context_state=true adds state (built-in and custom keys) and variant_name', async () => {
      const r = await reader.one(ids.C2, { include_context_state: 'true' });
      expect(r.status).toBe(200);
      expect(r.body.state).toMatchObject({
        conversation_id: ids.C2,
        channel: 'CHAT',
        environment: 'sandbox',
        topic: 'delivery',
      });
      expect(r.body.variant_name).toBe('');
      const list = await reader.list({ client_env: 'sandbox', limit: 50, include_context_state: 'true' });
      for (const c of list.body.conversations) {
        expect(c.state).toMatchObject({ conversation_id: c.id, channel: 'CHAT', environment: 'sandbox' });
        expect(c).toHaveProperty('variant_name');
      }
      expect(list.body.conversations.find((c: Json) => c.id === ids.C3).state.tier).toBe('gold');
      const off = await reader.one(ids.C2, { include_context_state: 'false' });
      expect(off.body).not.toHaveProperty('state');
      expect(off.body).not.toHaveProperty('variant_name');
    });

    it("include_turn_metadata=true adds each turn's debug chat metadata", async () => {
      const r = await reader.one(ids.C1, { include_turn_metadata: 'true' });
      expect(r.status).toBe(200);
      for (const turn of r.body.turns) expect(typeof turn.metadata).toBe('object');
      expect(r.body.turns[1].metadata.citedTopic).toBe('Refunds');
      const list = await reader.list({ client_env: 'sandbox', limit: 2, include_turn_metadata: 'true' });
      for (const turn of list.body.conversations.flatMap((c: Json) => c.turns)) expect(turn).toHaveProperty('metadata');
    });
  });

  describe('versions', () => {
    it('v2 has the v3 schema: same conversations, empty strings, state only on request', async () => {
      const v3 = await reader.list({ client_env: 'sandbox', limit: 50 });
      const v2 = await reader.list({ client_env: 'sandbox', limit: 50 }, { version: 'v2' });
      expect(v2.status).toBe(200);
      expect(v2.body.conversations.map((c: Json) => c.id)).toEqual(sandboxNewestFirst);
      expect(v2.body.next_offset).toBeNull();
      const c1 = v2.body.conversations.find((c: Json) => c.id === ids.C1);
      expect(c1).toEqual(v3.body.conversations.find((c: Json) => c.id === ids.C1));
      expect(c1).not.toHaveProperty('state');
      expect(c1.turns[0]).toMatchObject({ user_input: '', translated_user_input: '', english_agent_response: '' });
      const withState = await reader.one(ids.C2, { include_context_state: 'true' }, { version: 'v2' });
      expect(withState.status).toBe(200);
      expect(withState.body.state).toMatchObject({ topic: 'delivery' });
      expect(withState.body).toHaveProperty('variant_name');
    });

    it('v1: null for empty text, state and variant_name always, no latency/translation fields on turns', async () => {
      const r = await reader.list({ client_env: 'sandbox', limit: 50 }, { version: 'v1' });
      expect(r.status).toBe(200);
      expect(r.body.conversations.map((c: Json) => c.id)).toEqual(sandboxNewestFirst);
      const c1 = r.body.conversations.find((c: Json) => c.id === ids.C1);
      expect(c1).toMatchObject({
        id: ids.C1,
        account_id: f.accountId,
        project_id: agentA,
        environment: 'sandbox',
        channel: 'CHAT',
        num_turns: 2,
        in_progress: true,
        from_number: null,
        to_number: null,
        handoff: false,
        handoff_reason: null,
        handoff_destination: null,
      });
      expect(c1).toHaveProperty('variant_name');
      expect(c1.variant_name).toBeNull();
      expect(c1.state).toMatchObject({ conversation_id: ids.C1, channel: 'CHAT', environment: 'sandbox' });
      expect(c1.turns[0]).toMatchObject({ user_input: null, agent_response: GREETING });
      expect(c1.turns[1]).toMatchObject({ user_input: 'can I get a refund', agent_response: REFUNDS });
      for (const turn of c1.turns) {
        expect(turn).not.toHaveProperty('latency');
        expect(turn).not.toHaveProperty('translated_user_input');
        expect(turn).not.toHaveProperty('english_agent_response');
      }
      const c3 = (await reader.one(ids.C3, {}, { version: 'v1' })).body;
      expect(c3).toMatchObject({
        handoff: true,
        handoff_reason: 'asked for a human',
        handoff_destination: 'billing-queue',
      });
      expect(c3.state).toMatchObject({ tier: 'gold' });
    });

    it('v1 keeps the shared parameters: time range, client_env, limit, offset with next_offset', async () => {
      const page = await reader.list({ client_env: 'sandbox', limit: 3, offset: 3 }, { version: 'v1' });
      expect(page.status).toBe(200);
      expect(page.body.conversations.map((c: Json) => c.id)).toEqual(sandboxNewestFirst.slice(3, 6));
      expect(page.body.next_offset).toBe(6);
      expect(
        await reader.ids(
          { client_env: 'sandbox', start_time: isoPlus(startedAt.C3, -5), end_time: isoPlus(startedAt.C5, 5) },
          { version: 'v1' },
        ),
      ).toEqual([ids.C5, ids.C4, ids.C3]);
      expect(await reader.ids({}, { version: 'v1' })).toEqual([ids.L1]);
    });

    describe.each([
      ['query_type', { query_type: 'transcript', query: 'refund' }],
      ['sample', { sample: 'random' }],
      ['query', { query: 'refund' }],
      ['turn_type', { turn_type: 'user' }],
      ['channel', { channel: 'CHAT' }],
      ['cursor', { cursor: 'abc' }],
    ])('v1 with the v3-only parameter %s', (param, params) => {
      it('answers 400 naming it', async () => {
        const withRange = {
          client_env: 'sandbox',
          start_time: isoPlus(startedAt.C1, -60),
          end_time: isoPlus(startedAt.P1, 60),
          ...params,
        };
        expect400Naming(await reader.list(withRange, { version: 'v1' }), param);
      });
    });
  });

  describe('parameter errors (400 in the envelope, naming the parameter)', () => {
    const range = () => ({ start_time: isoPlus(startedAt.C1, -60), end_time: isoPlus(startedAt.P1, 60) });
    const cases: Array<[string, () => Params, string[]]> = [
      ['start_time not a time', () => ({ start_time: 'yesterday' }), ['start_time']],
      ['end_time not a time', () => ({ end_time: '2024-13-45T99:00:00Z' }), ['end_time']],
      ['client_env unknown', () => ({ client_env: 'staging' }), ['client_env']],
      ['in_progress not a boolean', () => ({ in_progress: 'maybe' }), ['in_progress']],
      ['limit 0', () => ({ limit: 0 }), ['limit']],
      ['limit 5001', () => ({ limit: 5001 }), ['limit']],
      ['limit not a number', () => ({ limit: 'x' }), ['limit']],
      ['offset negative', () => ({ offset: -1 }), ['offset']],
      ['offset not a number', () => ({ offset: 'x' }), ['offset']],
      ['cursor malformed', () => ({ cursor: 'not-a-cursor' }), ['cursor']],
      ['query_type unknown', () => ({ ...range(), query_type: 'fuzzy', query: 'refund' }), ['query_type']],
      ['query_type without query', () => ({ ...range(), query_type: 'transcript' }), ['query']],
      [
        'query_type without a time range',
        () => ({ query_type: 'transcript', query: 'refund' }),
        ['start_time', 'end_time'],
      ],
      [
        'query_type with start_time only',
        () => ({ query_type: 'semantic', query: 'refund', start_time: range().start_time }),
        ['end_time'],
      ],
      [
        'query_type with end_time only',
        () => ({ query_type: 'transcript', query: 'refund', end_time: range().end_time }),
        ['start_time'],
      ],
      ['sample unknown', () => ({ ...range(), sample: 'everything' }), ['sample']],
      ['sample without a time range', () => ({ sample: 'random' }), ['start_time', 'end_time']],
      [
        'query_type and sample together',
        () => ({ ...range(), query_type: 'transcript', query: 'refund', sample: 'random' }),
        ['query_type', 'sample'],
      ],
      ['turn_type without query_type', () => ({ ...range(), turn_type: 'user' }), ['turn_type']],
      [
        'turn_type with semantic search',
        () => ({ ...range(), query_type: 'semantic', query: 'refund', turn_type: 'agent' }),
        ['turn_type'],
      ],
      [
        'turn_type unknown',
        () => ({ ...range(), query_type: 'transcript', query: 'refund', turn_type: 'bot' }),
        ['turn_type'],
      ],
    ];
    it.each(cases)('%s', async (_what, params, names) => {
      expect400Naming(await reader.list({ client_env: 'sandbox', ...params() }), ...names);
    });

    it('as_of malformed on one conversation: 400', async () => {
      expect400Naming(await reader.one(ids.C1, { as_of: 'not-a-time' }), 'as_of');
    });
  });

  describe('authentication and key scope', () => {
    it('no key: 401; an unknown key: 401', async () => {
      const anonymous = new ConversationsReader(f, null, agentA);
      expectEnvelope(await anonymous.list({ client_env: 'sandbox' }), 401);
      expectEnvelope(await anonymous.one(ids.C1), 401);
      const unknown = new ConversationsReader(f, 'sk_thisisnotakeythisisnotakeythisisnotake', agentA);
      expectEnvelope(await unknown.list({ client_env: 'sandbox' }), 401);
    });

    it('a key of another account: 403', async () => {
      const foreign = await foreignAccount(f);
      const other = new ConversationsReader(f, foreign.key, agentA);
      expectEnvelope(await other.list({ client_env: 'sandbox' }), 403);
      expectEnvelope(await other.one(ids.C1), 403);
    });

    it('a key scoped to another agent: 403 (v3, v2, v1)', async () => {
      const scoped = new ConversationsReader(
        f,
        await issueKey(f, { agents: [agentB], permissions: ['conversations', 'handoff'] }),
        agentA,
      );
      for (const version of ['v3', 'v2', 'v1'] as const) {
        expectEnvelope(await scoped.list({ client_env: 'sandbox' }, { version }), 403);
        expectEnvelope(await scoped.one(ids.C1, {}, { version }), 403);
      }
      // the same key reads its own agent
      expect((await scoped.list({ client_env: 'sandbox' }, { project: agentB })).status).toBe(200);
    });
  });

  describe('search and sampling (query_type, turn_type, sample)', () => {
    let agentS: string;
    const s: Record<string, string> = {};
    let range: { start_time: string; end_time: string };
    let searcher: ConversationsReader;
    const search = async (params: Params) => {
      const r = await searcher.list({ client_env: 'sandbox', limit: 50, ...range, ...params });
      expect(r.status).toBe(200);
      return (r.body.conversations as Array<{ id: string }>).map((c) => c.id);
    };

    beforeAll(async () => {
      agentS = await buildAgent(f, 'Search shop', 'Hi, this is the shop.', [
        {
          name: 'Refunds',
          content: 'Money goes back to your card within five days.',
          queries: ['I want a refund please', 'refund', 'money back'],
        },
        {
          name: 'Cancellation',
          content: 'Your order is cancelled now.',
          queries: ['I need a cancellation of my order', 'cancellation', 'cancel order'],
        },
        {
          name: 'Delivery',
          content: 'Parcels arrive in two days.',
          queries: ['where is my package', 'package', 'delivery'],
        },
      ]);
      await setDataAccess(f, agentS, { response_metrics: [], show_transcripts: true });
      searcher = new ConversationsReader(f, reader.key, agentS);
      const from = new Date((await platformNow(f.t)) - 60_000).toISOString();
      const plan: Array<[string, string, string]> = [
        ['S1', 'I want a refund please', 'Money goes back to your card within five days.'],
        ['S2', 'I need a cancellation of my order', 'Your order is cancelled now.'],
        ['S3', 'where is my package', 'Parcels arrive in two days.'],
        ['S4', 'hello there', ''],
      ];
      for (const [name, message, answer] of plan) {
        await advanceClock(f.t, 1);
        const { id, replies } = await converse(f, agentS, [message]);
        s[name] = id;
        if (answer) expect(replies[0].response).toBe(answer);
      }
      range = { start_time: from, end_time: new Date((await platformNow(f.t)) + 60_000).toISOString() };
      await eventually(
        async () =>
          expect((await searcher.ids({ client_env: 'sandbox', limit: 50 })).sort()).toEqual(Object.values(s).sort()),
        5000,
      );
    });

    it('transcript search finds the conversations whose turns contain the words', async () => {
      expect(await search({ query_type: 'transcript', query: 'refund' })).toEqual([s.S1]);
      expect(await search({ query_type: 'transcript', query: 'package' })).toEqual([s.S3]);
      expect((await search({ query_type: 'transcript', query: 'days' })).sort()).toEqual([s.S1, s.S3].sort());
      expect(await search({ query_type: 'transcript', query: 'zeppelin' })).toEqual([]);
    });

    it('transcript search needs the words: a misspelt word or one missing from the turn finds nothing', async () => {
      expect(await search({ query_type: 'transcript', query: 'refnud' })).toEqual([]);
      expect(await search({ query_type: 'transcript', query: 'refund package' })).toEqual([]);
      expect(await search({ query_type: 'transcript', query: 'my package' })).toEqual([s.S3]);
    });

    it('turn_type=user searches user inputs only, turn_type=agent agent responses only', async () => {
      expect(await search({ query_type: 'transcript', query: 'package', turn_type: 'user' })).toEqual([s.S3]);
      expect(await search({ query_type: 'transcript', query: 'package', turn_type: 'agent' })).toEqual([]);
      expect(await search({ query_type: 'transcript', query: 'arrive', turn_type: 'agent' })).toEqual([s.S3]);
      expect(await search({ query_type: 'transcript', query: 'arrive', turn_type: 'user' })).toEqual([]);
      expect(await search({ query_type: 'transcript', query: 'arrive' })).toEqual([s.S3]);
    });

    it('semantic search matches inflections and near spellings', async () => {
      const refunds = await search({ query_type: 'semantic', query: 'refunds' });
      expect(refunds).toContain(s.S1);
      expect(refunds).not.toContain(s.S3);
      expect(refunds).not.toContain(s.S4);
      const cancelation = await search({ query_type: 'semantic', query: 'cancelation' });
      expect(cancelation).toContain(s.S2);
      expect(cancelation).not.toContain(s.S3);
      expect(cancelation).not.toContain(s.S4);
    });

    it('search keeps the other filters: time range and client_env', async () => {
      expect(await search({ query_type: 'transcript', query: 'refund', client_env: 'live' })).toEqual([]);
      const before = { start_time: isoPlus(range.start_time, -3600), end_time: isoPlus(range.start_time, -1800) };
      const r = await searcher.list({ client_env: 'sandbox', query_type: 'transcript', query: 'refund', ...before });
      expect(r.status).toBe(200);
      expect(r.body.conversations).toEqual([]);
    });

    it('sample=random returns distinct conversations of the range, at most limit', async () => {
      const two = await search({ sample: 'random', limit: 2 });
      expect(two).toHaveLength(2);
      expect(new Set(two).size).toBe(2);
      for (const id of two) expect(Object.values(s)).toContain(id);
      const all = await search({ sample: 'random', limit: 10 });
      expect([...all].sort()).toEqual(Object.values(s).sort());
    });
  });

  describe('cursor pagination (keyset)', () => {
    let agentW: string;
    let walker: ConversationsReader;
    let listing: string[];

    beforeAll(async () => {
      agentW = await buildAgent(f, 'Walker', 'Hi walker.', [
        { name: 'Hours', content: 'We open at nine.', queries: ['opening hours'] },
      ]);
      walker = new ConversationsReader(f, reader.key, agentW);
      // 7 conversations in 5 instants: ties on started_at straddle page boundaries of limit=2
      for (const group of [1, 1, 2, 2, 1]) {
        await advanceClock(f.t, 5);
        for (let i = 0; i < group; i++) await startChat(f, agentW);
      }
      listing = await eventually(async () => {
        const all = await walker.ids({ client_env: 'sandbox', limit: 50 });
        expect(all).toHaveLength(7);
        return all;
      }, 5000);
    });

    it('a cursor walk with limit=2 sees every conversation exactly once, in order, while newer ones are started between pages', async () => {
      const seen: string[] = [];
      const started: string[] = [];
      let cursor: string | null = null;
      let pages = 0;
      do {
        const r: JsonResponse = await walker.list({ client_env: 'sandbox', limit: 2, ...(cursor ? { cursor } : {}) });
        expect(r.status).toBe(200);
        const page = r.body.conversations.map((c: Json) => c.id);
        expect(page.length).toBeLessThanOrEqual(2);
        seen.push(...page);
        cursor = r.body.cursor;
        if (cursor !== null) {
          expect(typeof cursor).toBe('string');
          // a newer conversation arrives (and is visible) before the next page is read
          await advanceClock(f.t, 1);
          const fresh = await startChat(f, agentW);
          started.push(fresh);
          await eventually(async () => expect((await walker.ids({ client_env: 'sandbox', limit: 1 }))[0]).toBe(fresh));
        }
        if (++pages > 8) throw new Error('the cursor never became null');
      } while (cursor !== null);
      expect(seen).toEqual(listing);
      expect(new Set(seen).size).toBe(seen.length);
      expect(pages).toBe(4);
      for (const id of started) expect(seen).not.toContain(id);
      // the new ones are there, newest first, ahead of the walked listing
      expect(await walker.ids({ client_env: 'sandbox', limit: 50 })).toEqual([...started].reverse().concat(listing));
    });

    it('cursor wins over offset', async () => {
      const first = await walker.list({ client_env: 'sandbox', limit: 2 });
      const cursor = first.body.cursor as string;
      expect(typeof cursor).toBe('string');
      const plain = await walker.list({ client_env: 'sandbox', limit: 2, cursor });
      const withOffset = await walker.list({ client_env: 'sandbox', limit: 2, cursor, offset: 5 });
      expect(withOffset.status).toBe(200);
      expect(withOffset.body.conversations.map((c: Json) => c.id)).toEqual(
        plain.body.conversations.map((c: Json) => c.id),
      );
      const firstIds = first.body.conversations.map((c: Json) => c.id);
      for (const id of withOffset.body.conversations.map((c: Json) => c.id)) expect(firstIds).not.toContain(id);
    });

    it('a tampered cursor answers 400 naming cursor', async () => {
      const cursor = (await walker.list({ client_env: 'sandbox', limit: 2 })).body.cursor as string;
      const at = Math.floor(cursor.length / 2);
      const tampered = cursor.slice(0, at) + (cursor[at] === 'A' ? 'B' : 'A') + cursor.slice(at + 1);
      expect400Naming(await walker.list({ client_env: 'sandbox', limit: 2, cursor: tampered }), 'cursor');
      expect400Naming(await walker.list({ client_env: 'sandbox', limit: 2, cursor: `${cursor}x` }), 'cursor');
      expect400Naming(
        await walker.list({
          client_env: 'sandbox',
          limit: 2,
          cursor: '' + Buffer.from('{"offset":0}').toString('base64url'),
        }),
        'cursor',
      );
    });
  });

  describe('permission × project configuration (contract §4)', () => {
    let basic: ConversationsReader;
    beforeAll(async () => {
      basic = new ConversationsReader(f, await issueKey(f, { permissions: ['handoff'] }), agentA);
    });
    afterAll(async () => {
      await setDataAccess(f, agentA, FULL_ACCESS);
    });

    const CONFIGS: Array<{ response_metrics: string[]; show_transcripts: boolean }> = [
      { response_metrics: ['refund_asked', 'delivery_q', 'CSAT'], show_transcripts: true },
      { response_metrics: [], show_transcripts: true },
      { response_metrics: ['delivery_q'], show_transcripts: false },
      { response_metrics: [], show_transcripts: false },
    ];
    const ALL_METRICS: Record<string, Record<string, unknown>> = {
      C1: { refund_asked: 'yes' },
      C2: { delivery_q: ['1', '1'] },
      C3: { CSAT: '5' },
      C7: { CSAT: '5' },
    };
    const expectedMetrics = (name: string, enabled: string[]) =>
      Object.fromEntries(Object.entries(ALL_METRICS[name] ?? {}).filter(([metric]) => enabled.includes(metric)));

    describe.each(CONFIGS)(
      'with response_metrics $response_metrics and show_transcripts $show_transcripts',
      (config) => {
        beforeAll(async () => {
          await setDataAccess(f, agentA, config);
        });

        it('a key with conversations: turns per transcript access (num_turns true), metrics only the enabled ones', async () => {
          await eventually(async () => {
            const r = await reader.list({ client_env: 'sandbox', limit: 50 });
            expect(r.status).toBe(200);
            for (const spec of SANDBOX) {
              const c = r.body.conversations.find((x: Json) => x.id === ids[spec.name]);
              expect(c.num_turns).toBe(spec.messages.length + 1);
              expect(c.turns).toHaveLength(config.show_transcripts ? spec.messages.length + 1 : 0);
              expect(c.metrics).toEqual(expectedMetrics(spec.name, config.response_metrics));
            }
          });
          const one = await reader.one(ids.C2, { include_latency: 'true' });
          expect(one.status).toBe(200);
          expect(one.body.num_turns).toBe(3);
          // include_latency does not fill an empty turns
          expect(one.body.turns).toHaveLength(config.show_transcripts ? 3 : 0);
          expect(one.body.metrics).toEqual(expectedMetrics('C2', config.response_metrics));
          for (const version of ['v2', 'v1'] as const) {
            const old = await reader.one(ids.C1, {}, { version });
            expect(old.body.turns).toHaveLength(config.show_transcripts ? 2 : 0);
            expect(old.body.num_turns).toBe(2);
            expect(old.body.metrics).toEqual(expectedMetrics('C1', config.response_metrics));
          }
        });

        it('a key without conversations: 200 with id, account_id, project_id and started_at only', async () => {
          const r = await basic.list({
            client_env: 'sandbox',
            limit: 50,
            include_latency: 'true',
            include_context_state: 'true',
            include_turn_metadata: 'true',
          });
          expect(r.status).toBe(200);
          expect(r.body.conversations.map((c: Json) => c.id)).toEqual(sandboxNewestFirst);
          for (const c of r.body.conversations) {
            expect(Object.keys(c).sort()).toEqual(BASIC_FIELDS);
            expect(c).toMatchObject({ account_id: f.accountId, project_id: agentA });
          }
          expect(r.body.conversations.find((c: Json) => c.id === ids.C1).started_at).toBe(startedAt.C1);
          for (const version of ['v3', 'v2', 'v1'] as const) {
            const one = await basic.one(ids.C2, {}, { version });
            expect(one.status).toBe(200);
            expect(Object.keys(one.body).sort()).toEqual(BASIC_FIELDS);
            expect(one.body).toEqual({
              id: ids.C2,
              account_id: f.accountId,
              project_id: agentA,
              started_at: startedAt.C2,
            });
          }
        });
      },
    );
  });
});
