import { expectEnvelope } from './helpers/test-app';
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
  startConversationsFixture,
  type ConversationsFixture,
} from './helpers/conversations-fixture';
import type { Json } from './helpers/json';

/**
 * Handoff API (interface.md "Handoff state", "Handoff API"; contract §6 handoff action, §9) and the
 * audit side of the Conversations API (contract §8: the events route and `as_of`). Conversations
 * come from debug chat on the manual clock.
 */

const TOPICS = [
  {
    name: 'Billing human',
    content: 'Connecting you to billing.',
    queries: ['talk to billing', 'billing person please'],
    actions:
      'set_state key=tier value=gold\nset_state key=account_number value=AC-55\nhandoff destination=billing-queue reason="billing dispute" shared_id=TICKET-7781 keys=tier,account_number',
  },
  {
    name: 'Sales human',
    content: 'Connecting you to sales.',
    queries: ['talk to sales', 'sales person please'],
    actions: 'handoff destination=sales-queue reason="wants to buy"',
  },
  {
    name: 'Opening hours',
    content: 'We open at nine.',
    queries: ['opening hours', 'when do you open'],
    actions: 'log_metric name=hours_asked value=1',
  },
];

const bareOf = (id: string) => id.replace(/^(ws-|PROJECT-)/, '');

/** Compares two event positions, whether numbers, digit strings or fixed-width strings. */
function positionBefore(a: unknown, b: unknown): boolean {
  if (typeof a === 'number' && typeof b === 'number') return a < b;
  const sa = String(a);
  const sb = String(b);
  if (/^\d+$/.test(sa) && /^\d+$/.test(sb)) return BigInt(sa) < BigInt(sb);
  return sa.length === sb.length ? sa < sb : sa.length < sb.length;
}

describe('handoff state and conversation audit', () => {
  let f: ConversationsFixture;
  let agentH: string;
  let agentOther: string;
  /** conversations + handoff, all agents */
  let full: ConversationsReader;
  /** handoff only */
  let handoffOnly: ConversationsReader;
  /** conversations only */
  let conversationsOnly: ConversationsReader;
  /** HB: greeting at T0, "when do you open" at T0+30, handoff to billing at T0+60 */
  let hb: string;
  let t0: string;
  /** HS: handoff to sales without a shared id */
  let hs: string;
  /** HN: no handoff */
  let hn: string;

  beforeAll(async () => {
    f = await startConversationsFixture('Handoff Co');
    agentH = await buildAgent(f, 'Handoff bot', 'Hi, how can I help?', TOPICS);
    agentOther = (await f.api.createAgent('Other bot', 'Hi.')).agentId;
    await setDataAccess(f, agentH, { response_metrics: ['hours_asked'], show_transcripts: true });
    full = new ConversationsReader(f, await issueKey(f, { permissions: ['conversations', 'handoff'] }), agentH);
    handoffOnly = new ConversationsReader(f, await issueKey(f, { permissions: ['handoff'] }), agentH);
    conversationsOnly = new ConversationsReader(f, await issueKey(f, { permissions: ['conversations'] }), agentH);

    await advanceClock(f.t, 5);
    t0 = new Date(await platformNow(f.t)).toISOString();
    const billing = await converse(f, agentH, ['when do you open', 'I want to talk to billing'], 'sandbox', 30);
    hb = billing.id;
    expect(billing.replies.map((r) => r.metadata.citedTopic)).toEqual(['Opening hours', 'Billing human']);
    expect(billing.replies[1].conversationEnded).toBe(true);
    expect(billing.replies[1].metadata.handoffDestination).toBe('billing-queue');

    await advanceClock(f.t, 5);
    const sales = await converse(f, agentH, ['talk to sales please'], 'sandbox');
    hs = sales.id;
    expect(sales.replies[0].conversationEnded).toBe(true);

    await advanceClock(f.t, 5);
    const none = await converse(f, agentH, ['opening hours'], 'sandbox');
    hn = none.id;
    expect(none.replies[0].conversationEnded).toBe(false);

    await eventually(async () => {
      expect((await full.handoff({ id: hb })).status).toBe(200);
      expect((await full.handoff({ id: hs })).status).toBe(200);
      const r = await full.list({ client_env: 'sandbox', limit: 50 });
      expect(r.status).toBe(200);
      const byId = new Map<string, Json>(r.body.conversations.map((c: Json) => [c.id, c]));
      expect(byId.get(hb)).toMatchObject({ num_turns: 3, in_progress: false, handoff: true });
      expect(byId.get(hs)).toMatchObject({ num_turns: 2, in_progress: false, handoff: true });
      expect(byId.get(hn)).toMatchObject({ num_turns: 2, in_progress: true, handoff: false });
    }, 5000);
  });
  afterAll(async () => f?.close());

  describe('Handoff API: GET /v1/{account_id}/{project_id}/handoff_state', () => {
    const HB_DATA = {
      reason: 'billing dispute',
      destination: 'billing-queue',
      tier: 'gold',
      account_number: 'AC-55',
      shared_id: 'TICKET-7781',
    };

    it('by id: the state the handoff action stored (reason, destination, chosen keys, shared_id)', async () => {
      const r = await handoffOnly.handoff({ id: hb });
      expect(r.status).toBe(200);
      expect(r.body).toEqual({ id: hb, shared_id: 'TICKET-7781', data: HB_DATA });
    });

    it('by shared_id: the same state', async () => {
      const r = await handoffOnly.handoff({ shared_id: 'TICKET-7781' });
      expect(r.status).toBe(200);
      expect(r.body).toEqual({ id: hb, shared_id: 'TICKET-7781', data: HB_DATA });
    });

    it('shared_id wins when both are given', async () => {
      const r = await handoffOnly.handoff({ id: hs, shared_id: 'TICKET-7781' });
      expect(r.status).toBe(200);
      expect(r.body.id).toBe(hb);
      expectEnvelope(await handoffOnly.handoff({ id: hb, shared_id: 'TICKET-0000' }), 404);
    });

    it('a handoff without a shared id: data holds reason and destination only', async () => {
      const r = await handoffOnly.handoff({ id: hs });
      expect(r.status).toBe(200);
      expect(r.body.id).toBe(hs);
      expect(['', null]).toContain(r.body.shared_id);
      expect(r.body.data).toEqual({ reason: 'wants to buy', destination: 'sales-queue' });
    });

    it('neither id nor shared_id: 400', async () => {
      const r = await handoffOnly.handoff({});
      expectEnvelope(r, 400);
      expect(r.body.error_message).toMatch(/id/);
    });

    it("not found: unknown id, unknown shared_id, a conversation without handoff, another project's conversation: 404", async () => {
      expectEnvelope(await handoffOnly.handoff({ id: 'AS_CHAT_00000000-0000-0000-0000-000000000000' }), 404);
      expectEnvelope(await handoffOnly.handoff({ shared_id: 'NO-SUCH-TICKET' }), 404);
      expectEnvelope(await handoffOnly.handoff({ id: hn }), 404);
      expectEnvelope(await handoffOnly.handoff({ id: hb }, { project: agentOther }), 404);
      expectEnvelope(await handoffOnly.handoff({ shared_id: 'TICKET-7781' }, { project: agentOther }), 404);
    });

    it('accepts the bare and the prefixed account and project in the path', async () => {
      for (const account of [f.accountId, bareOf(f.accountId)]) {
        for (const project of [agentH, bareOf(agentH)]) {
          const r = await handoffOnly.handoff({ id: hb }, { account, project });
          expect(r.status).toBe(200);
          expect(r.body.id).toBe(hb);
        }
      }
    });

    it("auth: no key 401; a key without handoff 403; another account's key 403; a key scoped to another agent 403", async () => {
      expectEnvelope(await new ConversationsReader(f, null, agentH).handoff({ id: hb }), 401);
      expectEnvelope(
        await new ConversationsReader(f, 'sk_thisisnotakeythisisnotakeythisisnotake', agentH).handoff({ id: hb }),
        401,
      );
      expectEnvelope(await conversationsOnly.handoff({ id: hb }), 403);
      expectEnvelope(await new ConversationsReader(f, (await foreignAccount(f)).key, agentH).handoff({ id: hb }), 403);
      const scoped = new ConversationsReader(
        f,
        await issueKey(f, { agents: [agentOther], permissions: ['handoff', 'conversations'] }),
        agentH,
      );
      expectEnvelope(await scoped.handoff({ id: hb }), 403);
    });

    it('the conversation record shows the same handoff', async () => {
      const r = await full.one(hb);
      expect(r.status).toBe(200);
      expect(r.body).toMatchObject({
        id: hb,
        handoff: true,
        handoff_reason: 'billing dispute',
        handoff_destination: 'billing-queue',
        in_progress: false,
        num_turns: 3,
      });
      const withState = await full.one(hb, { include_context_state: 'true' });
      expect(withState.body.state).toMatchObject({ tier: 'gold', account_number: 'AC-55' });
    });
  });

  describe('audit: GET /v3/{account_id}/{project_id}/conversations/{id}/events', () => {
    it('returns the stored history in stream order: revisions 0..n-1, ConversationStarted first, one TurnRecorded per turn', async () => {
      const r = await conversationsOnly.events(hb);
      expect(r.status).toBe(200);
      const events: Json[] = r.body.events;
      expect(Array.isArray(events)).toBe(true);
      expect(events.map((e) => e.revision)).toEqual(events.map((_e, i) => i));
      for (const e of events) {
        for (const field of ['position', 'revision', 'type', 'occurred_at', 'actor', 'data'])
          expect(e).toHaveProperty(field);
        expect(e.occurred_at).toMatch(ISO_MS);
        expect(typeof e.data).toBe('object');
      }
      for (let i = 1; i < events.length; i++)
        expect(positionBefore(events[i - 1].position, events[i].position)).toBe(true);
      const types = events.map((e) => e.type);
      expect(types[0]).toBe('ConversationStarted');
      expect(types.filter((type) => type === 'TurnRecorded')).toHaveLength(3);
      expect(types).toContain('HandoffRequested');
      // the end, then (behind the log) at most its post-call analysis
      expect(types.filter((type: string) => type !== 'ConversationAnalysed').at(-1)).toBe('ConversationEnded');
      expect(types.indexOf('HandoffRequested')).toBeGreaterThan(types.lastIndexOf('TurnRecorded'));
      expect(events.find((e) => e.type === 'HandoffRequested').data).toMatchObject({
        destination: 'billing-queue',
        reason: 'billing dispute',
      });
      // occurred_at follows the platform clock
      const turns = events.filter((e) => e.type === 'TurnRecorded');
      expect(events[0].occurred_at).toBe(t0);
      expect(turns.map((e) => e.occurred_at)).toEqual([t0, isoPlus(t0, 30), isoPlus(t0, 60)]);
    });

    it('a conversation still in progress: no end event yet', async () => {
      const r = await full.events(hn);
      expect(r.status).toBe(200);
      const types = r.body.events.map((e: Json) => e.type);
      expect(types[0]).toBe('ConversationStarted');
      expect(types.filter((type: string) => type === 'TurnRecorded')).toHaveLength(2);
      expect(types).not.toContain('ConversationEnded');
    });

    it('needs the conversations permission: 403 without; 401 without a key; 404 unknown; accepts bare ids in the path', async () => {
      expectEnvelope(await handoffOnly.events(hb), 403);
      expectEnvelope(await new ConversationsReader(f, null, agentH).events(hb), 401);
      expectEnvelope(await full.events('AS_CHAT_00000000-0000-0000-0000-000000000000'), 404);
      expectEnvelope(await full.events(hb, { project: agentOther }), 404);
      expectEnvelope(await new ConversationsReader(f, (await foreignAccount(f)).key, agentH).events(hb), 403);
      const bare = await full.events(hb, { account: bareOf(f.accountId), project: bareOf(agentH) });
      expect(bare.status).toBe(200);
      expect(bare.body.events[0].type).toBe('ConversationStarted');
    });
  });

  describe('audit: as_of on the single-conversation GET', () => {
    let events: Json[];
    const revisionOf = (type: string, nth = 0) => events.filter((e) => e.type === type)[nth].revision as number;

    beforeAll(async () => {
      events = (await full.events(hb)).body.events;
    });

    it('by revision: the conversation as it was after that event', async () => {
      const greeting = await full.one(hb, { as_of: revisionOf('TurnRecorded', 0) });
      expect(greeting.status).toBe(200);
      expect(greeting.body).toMatchObject({
        id: hb,
        num_turns: 1,
        in_progress: true,
        handoff: false,
        handoff_reason: '',
        handoff_destination: '',
      });
      expect(greeting.body.turns).toHaveLength(1);
      expect(greeting.body.turns[0]).toMatchObject({ user_input: '', agent_response: 'Hi, how can I help?' });

      const second = await full.one(hb, { as_of: revisionOf('TurnRecorded', 1) });
      expect(second.body).toMatchObject({ num_turns: 2, in_progress: true, handoff: false });
      expect(second.body.turns.map((turn: Json) => turn.user_input)).toEqual(['', 'when do you open']);

      const beforeHandoff = await full.one(hb, { as_of: revisionOf('HandoffRequested') - 1 });
      expect(beforeHandoff.body).toMatchObject({ num_turns: 3, in_progress: true, handoff: false });

      const last = await full.one(hb, { as_of: events[events.length - 1].revision });
      const now = await full.one(hb);
      expect(last.body).toMatchObject({
        num_turns: 3,
        in_progress: false,
        handoff: true,
        handoff_destination: 'billing-queue',
      });
      expect(last.body).toEqual(now.body);
    });

    it('by ISO time: the conversation as it was then', async () => {
      const early = await full.one(hb, { as_of: isoPlus(t0, 10) });
      expect(early.status).toBe(200);
      expect(early.body).toMatchObject({ id: hb, started_at: t0, num_turns: 1, in_progress: true, handoff: false });
      const middle = await full.one(hb, { as_of: isoPlus(t0, 45) });
      expect(middle.body).toMatchObject({ num_turns: 2, in_progress: true, handoff: false });
      expect(middle.body.turns[1]).toMatchObject({
        user_input: 'when do you open',
        agent_response: 'We open at nine.',
      });
      const later = await full.one(hb, { as_of: isoPlus(t0, 90) });
      expect(later.body).toMatchObject({
        num_turns: 3,
        in_progress: false,
        handoff: true,
        handoff_reason: 'billing dispute',
      });
    });

    it("keeps the version's shape and the include_* flags", async () => {
      const r = await full.one(hb, { as_of: isoPlus(t0, 45), include_context_state: 'true', include_latency: 'true' });
      expect(r.status).toBe(200);
      expect(r.body.state).toMatchObject({ conversation_id: hb });
      expect(r.body.state).not.toHaveProperty('tier');
      for (const turn of r.body.turns) expect(typeof turn.latency.total_s).toBe('number');
    });

    it('before the conversation started: 404; an invalid as_of: 400', async () => {
      expectEnvelope(await full.one(hb, { as_of: isoPlus(t0, -10) }), 404);
      for (const bad of ['not-a-time', '2024-13-45T99:00:00Z', '1.5']) {
        const r = await full.one(hb, { as_of: bad });
        expectEnvelope(r, 400);
        expect(r.body.error_message).toContain('as_of');
      }
    });

    it('data access still applies: transcripts off gives no turns (true num_turns) and no transcript text in the events', async () => {
      await setDataAccess(f, agentH, { response_metrics: [], show_transcripts: false });
      try {
        await eventually(async () => {
          const r = await full.one(hb, { as_of: isoPlus(t0, 45) });
          expect(r.status).toBe(200);
          expect(r.body).toMatchObject({ num_turns: 2, turns: [], metrics: {} });
        });
        const audit = await full.events(hb);
        expect(audit.status).toBe(200);
        expect(audit.body.events.map((e: Json) => e.revision)).toEqual(events.map((e) => e.revision));
        const text = JSON.stringify(audit.body.events);
        for (const secret of [
          'when do you open',
          'I want to talk to billing',
          'We open at nine.',
          'Connecting you to billing.',
        ])
          expect(text).not.toContain(secret);
      } finally {
        await setDataAccess(f, agentH, { response_metrics: ['hours_asked'], show_transcripts: true });
      }
    });

    it('needs the conversations permission: a key without it gets 403', async () => {
      expectEnvelope(await handoffOnly.one(hb, { as_of: isoPlus(t0, 45) }), 403);
    });
  });
});
