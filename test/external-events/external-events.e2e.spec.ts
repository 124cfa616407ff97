import { createHash } from 'node:crypto';
import { EVENT_STORE, type EventStore } from '../../src/event-store/event-store.port';
import { BindPacer } from '../../src/external-events/bind-pacer';
import { AgentsClient, createAccount } from '../helpers/agents-fixture';
import { operatorKey } from '../helpers/keys-fixtures';
import { expectEnvelope, request, startTestApp, type TestApp } from '../helpers/test-app';

const KB = [
  {
    name: 'Pay',
    content: 'Please pay with the link we just sent.',
    queries: ['I want to pay my bill', 'pay bill'],
    actions: 'await_external_event name=payment',
  },
  {
    name: 'event:payment',
    content: 'Payment of $state.external_events.payment.payload.data.amount received, thank you!',
    queries: ['zzqx'],
    actions: 'set_state key=paid value=yes\nlog_metric name=PAID value=1',
  },
  {
    name: 'Verify',
    content: 'We are checking your identity.',
    queries: ['verify my identity', 'identity check'],
    actions: 'await_external_event name=id_check',
  },
  { name: 'Goodbye', content: 'Goodbye!', queries: ['goodbye bye'], actions: 'end_conversation' },
];

async function eventually<T>(probe: () => Promise<T | undefined>, what: string, timeoutMs = 5000): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe('external events (contract §9)', () => {
  let t: TestApp;
  let client: AgentsClient;
  let agentId: string;
  let otherAgentId: string;
  let eventsKey: string;
  let store: EventStore;
  const chat = (path: string, body: unknown) => client.post(`/v1/agents/${agentId}/debug-chat${path}`, body);

  /** A new debug chat awaiting an external event; returns the conversation and the event id. */
  async function awaiting(message = 'I want to pay my bill', name = 'payment') {
    const { conversationId } = (await chat('', { clientEnv: 'sandbox' })).body;
    const r = await chat(`/${conversationId}`, { clientEnv: 'sandbox', message });
    const eventId: string = r.body.metadata.state.external_event_ids[name];
    expect(eventId).toEqual(expect.any(String));
    return { conversationId: conversationId as string, eventId };
  }

  function deliver(opts: {
    location?: string;
    path?: string;
    body?: string;
    contentType?: string;
    headers?: Record<string, string>;
    extraQuery?: string;
    account?: string;
    project?: string;
    key?: string | null;
  }) {
    const q = new URLSearchParams({
      event_id_location: opts.location ?? 'payload',
      event_id_path: opts.path ?? 'data.id',
      account_id: opts.account ?? client.account.accountId,
      project_id: opts.project ?? agentId,
    });
    const headers: Record<string, string> = { ...(opts.headers ?? {}) };
    if (opts.contentType !== undefined) headers['content-type'] = opts.contentType;
    if (opts.key !== null) headers['X-Api-Key'] = opts.key ?? eventsKey;
    return request(`${t.url}/v1/external-events/webhook?${q}${opts.extraQuery ?? ''}`, {
      method: 'POST',
      headers,
      rawBody: opts.body ?? '',
    });
  }

  const streamOf = (conversationId: string) => store.readStream(`conversation-${conversationId}`);
  const received = (conversationId: string) =>
    eventually(async () => {
      const events = await streamOf(conversationId);
      return events.some((e) => e.type === 'ExternalEventReceived') ? events : undefined;
    }, 'the event to be bound');

  beforeAll(async () => {
    t = await startTestApp({ PARLEY_TEST_CLOCK: '1' });
    store = t.app.get<EventStore>(EVENT_STORE);
    const account = await createAccount(t, 'Acme', ['agents', 'keys', 'conversations']);
    client = new AgentsClient(t, account);
    agentId = (await client.createAgent('Billing', 'Hi, billing here.')).agentId;
    otherAgentId = (await client.createAgent('Other', 'Hi.')).agentId;
    await client.shipChange(agentId, 'kb', async (branchId) => {
      for (const topic of KB) await client.addTopic(agentId, branchId, topic);
    });
    eventsKey = (await operatorKey(t, account.accountId, { permissions: ['external_events'] })).key;
  });
  afterAll(async () => t.close());

  it('binds a JSON payload: 201 queued, state updated, the agent answers as the next turn with delayedResponse', async () => {
    const { conversationId, eventId } = await awaiting();
    const body = JSON.stringify({ data: { id: eventId, amount: '12.50' }, extra: [1, 2] });
    const r = await deliver({ contentType: 'application/json', body });
    expect(r.status).toBe(201);
    expect(r.body).toEqual({ event_id: eventId, status: 'queued' });

    const events = await received(conversationId);
    const bound = events.find((e) => e.type === 'ExternalEventReceived')!;
    // stored opaque: the exact bytes and their content type, never re-serialised
    expect(bound.data).toMatchObject({ eventId, name: 'payment', contentType: 'application/json', agentTurn: true });
    expect(Buffer.from((bound.data as { body: string }).body, 'base64').toString()).toBe(body);

    const next = await chat(`/${conversationId}`, { clientEnv: 'sandbox', message: 'any news?' });
    expect(next.status).toBe(200);
    expect(next.body).toMatchObject({
      conversationId,
      delayedResponse: true,
      response: 'Payment of 12.50 received, thank you!',
      userInput: '',
    });
    expect(next.body.metadata.state).toMatchObject({
      paid: 'yes',
      external_events: { payment: { event_id: eventId, payload: { data: { id: eventId, amount: '12.50' } } } },
    });
    expect(next.body.metadata.metrics).toEqual({ PAID: '1' });
    expect(next.body.metadata.citedTopic).toBe('event:payment');

    const after = await chat(`/${conversationId}`, { clientEnv: 'sandbox', message: 'pay bill' });
    expect(after.body.delayedResponse).toBe(false);
    expect(after.body.response).toBe(KB[0].content);
  });

  it('answers with a default acknowledgement when no event:<name> topic exists', async () => {
    const { conversationId, eventId } = await awaiting('verify my identity', 'id_check');
    expect(
      (
        await deliver({
          location: 'querystring',
          path: 'ref',
          extraQuery: `&ref=${encodeURIComponent(eventId)}`,
          contentType: 'text/plain',
          body: 'verified',
        })
      ).status,
    ).toBe(201);
    await received(conversationId);
    const next = await chat(`/${conversationId}`, { clientEnv: 'sandbox', message: '' });
    expect(next.body).toMatchObject({
      delayedResponse: true,
      response: 'Thanks for waiting: the id check result has arrived.',
    });
    expect(next.body.metadata.state.external_events.id_check.payload).toBe('verified');
  });

  describe('finds the id in every location and content type', () => {
    const cases: Array<[string, (id: string) => Parameters<typeof deliver>[0], unknown]> = [
      [
        'a header, any case',
        (id) => ({
          location: 'headers',
          path: 'X-Event-Id',
          headers: { 'x-event-id': id },
          contentType: 'application/json',
          body: '{"ok":true}',
        }),
        { ok: true },
      ],
      [
        'the query string',
        (id) => ({
          location: 'querystring',
          path: 'evt',
          extraQuery: `&evt=${encodeURIComponent(id)}`,
          contentType: 'application/json',
          body: '{}',
        }),
        {},
      ],
      [
        'a JSON dotted path through an array',
        (id) => ({
          path: 'items.0.ref',
          contentType: 'application/json; charset=utf-8',
          body: JSON.stringify({ items: [{ ref: id }] }),
        }),
        { items: [expect.any(Object)] },
      ],
      [
        'a form field',
        (id) => ({
          path: 'event_id',
          contentType: 'application/x-www-form-urlencoded',
          body: `status=paid&event_id=${encodeURIComponent(id)}`,
        }),
        { status: 'paid', event_id: expect.any(String) },
      ],
      [
        'an XML element path',
        (id) => ({
          path: 'result.meta.id',
          contentType: 'application/xml',
          body: `<?xml version="1.0"?><result status="ok"><meta><id>${id}</id></meta><note><![CDATA[a < b]]></note></result>`,
        }),
        expect.stringContaining('<result'),
      ],
      [
        'an XML path below the root',
        (id) => ({ path: 'meta.id', contentType: 'text/xml', body: `<r><meta><id> ${id} </id></meta></r>` }),
        expect.any(String),
      ],
      [
        'a text/plain body with an empty path',
        (id) => ({ path: '', contentType: 'text/plain', body: `  ${id}\n` }),
        expect.any(String),
      ],
    ];
    it.each(cases)('%s', async (_name, build, payload) => {
      const { conversationId, eventId } = await awaiting();
      const r = await deliver(build(eventId));
      expect(r.status).toBe(201);
      expect(r.body).toEqual({ event_id: eventId, status: 'queued' });
      await received(conversationId);
      const next = await chat(`/${conversationId}`, { clientEnv: 'sandbox', message: 'hello' });
      expect(next.body.delayedResponse).toBe(true);
      expect(next.body.metadata.state.external_events.payment.payload).toEqual(payload);
    });
  });

  it('applies a repeated delivery once: every repeat is 201, one binding, one agent turn', async () => {
    const { conversationId, eventId } = await awaiting();
    const body = JSON.stringify({ data: { id: eventId, amount: '5' } });
    const answers = await Promise.all([1, 2, 3].map(() => deliver({ contentType: 'application/json', body })));
    expect(answers.map((a) => a.status)).toEqual([201, 201, 201]);
    await received(conversationId);
    // a later repeat, even with another body, is acknowledged and changes nothing
    expect(
      (
        await deliver({
          contentType: 'application/json',
          body: JSON.stringify({ data: { id: eventId, amount: '999' } }),
        })
      ).status,
    ).toBe(201);
    await new Promise((resolve) => setTimeout(resolve, 200));
    const events = await streamOf(conversationId);
    expect(events.filter((e) => e.type === 'ExternalEventReceived')).toHaveLength(1);
    expect(
      events.filter((e) => e.type === 'TurnRecorded' && (e.data as { delayedResponse: boolean }).delayedResponse),
    ).toHaveLength(1);
    const deliveries = await store.readStream(`external-event-${agentId.replace(/^PROJECT-/, '')}-${eventId}`);
    expect(deliveries.map((e) => e.type)).toEqual(['ExternalEventDelivered', 'ExternalEventDelivered']);
    // A repeat is recognised by the digest of its content type and body: it must stay what it was.
    const digest = createHash('sha256').update(`application/json\n${body}`).digest('hex');
    expect(deliveries[0].data).toMatchObject({ bodySha256: digest });
  });

  it('records an event for an ended conversation without an agent turn', async () => {
    const { conversationId, eventId } = await awaiting();
    expect(
      (await chat(`/${conversationId}`, { clientEnv: 'sandbox', message: 'goodbye bye' })).body.conversationEnded,
    ).toBe(true);
    expect(
      (await deliver({ contentType: 'application/json', body: JSON.stringify({ data: { id: eventId } }) })).status,
    ).toBe(201);
    const events = await received(conversationId);
    const types = events.map((e) => e.type);
    expect(types.slice(-2)).toEqual(['ExternalEventReceived', 'StateChanged']);
    expect(events.find((e) => e.type === 'ExternalEventReceived')!.data).toMatchObject({ agentTurn: false });
    expectEnvelope(
      await chat(`/${conversationId}`, { clientEnv: 'sandbox', message: 'hi' }),
      410,
      'CHAT_CONVERSATION_ENDED',
    );
  });

  it('shows the binding in the conversation audit and the Conversations API state', async () => {
    const { conversationId, eventId } = await awaiting();
    await deliver({ contentType: 'application/json', body: JSON.stringify({ data: { id: eventId, amount: '1' } }) });
    await received(conversationId);
    const base = `/v3/${client.account.accountId}/${agentId}/conversations/${conversationId}`;
    const audit = await eventually(async () => {
      const r = await client.get(`${base}/events`);
      return r.status === 200 && r.body.events.some((e: { type: string }) => e.type === 'ExternalEventReceived')
        ? r
        : undefined;
    }, 'the audit');
    expect(audit.body.events.find((e: { type: string }) => e.type === 'ExternalEventReceived').data).toMatchObject({
      eventId,
      name: 'payment',
    });
    // the conversations read model applies the bound turn after the store has it: read until it has
    const one = await eventually(async () => {
      const r = await client.get(`${base}?include_context_state=true`);
      return r.status === 200 && r.body.num_turns === 3 ? r : undefined;
    }, 'the bound turn in the Conversations API');
    expect(one.body.num_turns).toBe(3);
  });

  describe('errors (interface.md "External Events API")', () => {
    it('400 when the id is not where the query says, naming the problem in error_message', async () => {
      const r = expectEnvelope(
        await deliver({ contentType: 'application/json', body: '{"data":{}}' }),
        400,
        'EXTERNAL_EVENT_ID_MISSING',
      );
      expect(r.error_message).toContain('data.id');
      expectEnvelope(
        await deliver({ location: 'headers', path: 'X-Event-Id', contentType: 'application/json', body: '{}' }),
        400,
        'EXTERNAL_EVENT_ID_MISSING',
      );
      expectEnvelope(
        await deliver({ path: '', contentType: 'application/json', body: '{}' }),
        400,
        'EXTERNAL_EVENT_ID_MISSING',
      );
      expectEnvelope(
        await deliver({ contentType: 'application/json', body: '{"data":{"id":{"nested":1}}}' }),
        400,
        'EXTERNAL_EVENT_ID_INVALID',
      );
    });

    it('400 for an id no conversation of this project awaits, or one of another project', async () => {
      expectEnvelope(
        await deliver({ contentType: 'application/json', body: '{"data":{"id":"nobody-awaits-this"}}' }),
        400,
        'EXTERNAL_EVENT_UNKNOWN',
      );
      const { eventId } = await awaiting();
      expectEnvelope(
        await deliver({
          project: otherAgentId,
          contentType: 'application/json',
          body: JSON.stringify({ data: { id: eventId } }),
        }),
        400,
        'EXTERNAL_EVENT_UNKNOWN',
      );
    });

    it('400 for malformed bodies, unsupported content types and missing query parameters', async () => {
      expectEnvelope(await deliver({ contentType: 'application/json', body: '{"data":' }), 400, 'MALFORMED_BODY');
      expectEnvelope(
        await deliver({ contentType: 'application/xml', path: 'a.b', body: '<a><b>1</a>' }),
        400,
        'MALFORMED_BODY',
      );
      expectEnvelope(
        await deliver({ contentType: 'application/octet-stream', body: 'x' }),
        400,
        'UNSUPPORTED_CONTENT_TYPE',
      );
      const q = `event_id_path=x&account_id=${client.account.accountId}&project_id=${agentId}`;
      const missing = await request(`${t.url}/v1/external-events/webhook?${q}`, {
        method: 'POST',
        headers: { 'x-api-key': eventsKey, 'content-type': 'text/plain' },
        rawBody: 'x',
      });
      expect(expectEnvelope(missing, 400).error_message).toContain('event_id_location');
      expectEnvelope(
        await deliver({ location: 'body', contentType: 'text/plain', body: 'x' }),
        400,
        'VALIDATION_ERROR',
      );
    });

    it('401 without a valid key, 403 without external_events or for another account', async () => {
      expectEnvelope(await deliver({ key: null, contentType: 'text/plain', body: 'x', path: '' }), 401);
      expectEnvelope(await deliver({ key: 'sk_nope', contentType: 'text/plain', body: 'x', path: '' }), 401);
      expectEnvelope(await deliver({ key: client.account.key, contentType: 'text/plain', body: 'x', path: '' }), 403);
      const other = await createAccount(t, 'Other', ['agents']);
      const otherKey = (await operatorKey(t, other.accountId, { permissions: ['external_events'] })).key;
      expectEnvelope(await deliver({ key: otherKey, contentType: 'text/plain', body: 'x', path: '' }), 403);
    });

    it('413 past the 1 MiB body limit', async () => {
      const r = await deliver({ contentType: 'text/plain', path: '', body: 'x'.repeat(1024 * 1024 + 10) });
      expectEnvelope(r, 413);
    });

    it('a refused delivery leaves flight like an accepted one (the bind pacer counts deliveries in flight)', async () => {
      const { eventId } = await awaiting();
      const answers = await Promise.all([
        deliver({ contentType: 'application/json', body: JSON.stringify({ data: { id: eventId } }) }),
        deliver({ contentType: 'application/json', body: '{"data":{"id":"nobody-awaits-this-either"}}' }),
        deliver({ contentType: 'application/json', body: '{"data":{}}' }),
        deliver({ contentType: 'application/octet-stream', body: 'x' }),
      ]);
      expect(answers.map((r) => r.status)).toEqual([201, 400, 400, 400]);
      expect(t.app.get(BindPacer).deliveriesInFlight).toBe(0);
    });
  });
});
