import fs from 'node:fs';
import path from 'node:path';
import { EVENT_STORE, type EventStore } from '../../src/event-store/event-store.port';
import { advanceClock, createAccount, errorText, operatorKey, withKey } from '../helpers/keys-fixtures';
import { expectEnvelope, request, startTestApp, type JsonResponse, type TestApp } from '../helpers/test-app';

/**
 * Webhook endpoints over HTTP (contract §13): every route, the secret shown once, the 10-endpoint
 * limit, the https rule, and every error in the one envelope (contract §2), on the test clock.
 */

const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const BASE = '/v1/webhook-endpoints';
const valid = (extra: Record<string, unknown> = {}) => ({
  url: 'https://hooks.example.com/parley',
  event_types: ['conversation.started'],
  ...extra,
});

describe('webhook endpoints API', () => {
  let t: TestApp;
  let accountId: string;
  let key: string;
  let keyId: string;
  let noAlerts: string;
  let foreignKey: string;

  const call = (method: string, path: string, body?: unknown, as = key): Promise<JsonResponse> =>
    request(`${t.url}${BASE}${path}`, { method, body, headers: withKey(as) });
  const create = async (body: Record<string, unknown> = valid(), as = key) => {
    const r = await call('POST', '', body, as);
    expect(r.status).toBe(201);
    return r.body;
  };
  /** 400 in the envelope, naming `field` in `errors` and in the message. */
  const expectFieldError = (r: JsonResponse, field: string) => {
    const body = expectEnvelope(r, 400, 'VALIDATION_ERROR');
    expect(body.errors.map((e: { field: string }) => e.field)).toContain(field);
    expect(errorText(body)).toContain(field);
  };

  beforeAll(async () => {
    t = await startTestApp({ PARLEY_TEST_CLOCK: '1', WEBHOOK_ALLOW_HTTP: '1' });
    const foreign = await createAccount(t, 'Foreign Co');
    foreignKey = (await operatorKey(t, foreign, { permissions: ['alerts'] })).key;
  });

  // Each test on an account of its own, so the 10-endpoint limit never couples them.
  beforeEach(async () => {
    accountId = await createAccount(t, 'Hooks Co');
    ({ key, id: keyId } = await operatorKey(t, accountId, { permissions: ['alerts'] }));
    noAlerts = (await operatorKey(t, accountId, { permissions: ['agents', 'conversations', 'keys'] })).key;
  });

  afterAll(async () => {
    await t?.close();
  });

  it('POST creates an endpoint (201) with its defaults and shows the full signing secret this once', async () => {
    const r = await call('POST', '', valid());
    expect(r.status).toBe(201);
    expect(r.body).toEqual({
      id: expect.stringMatching(/^whe_[a-z0-9]+$/),
      name: 'hooks.example.com',
      url: 'https://hooks.example.com/parley',
      enabled: true,
      event_types: ['conversation.started'],
      headers: {},
      timeout_ms: 5000,
      signing_secret: expect.stringMatching(/^whsec_[a-z2-7]{40}$/),
      created_at: expect.stringMatching(ISO_MS),
      updated_at: r.body.created_at,
    });

    const full = await create({
      name: 'CRM sync',
      url: 'https://crm.example.com/in',
      event_types: [
        'alerts.triggered',
        'alerts.resolved',
        'conversation.started',
        'conversation.ended',
        'handoff.created',
      ],
      headers: { Authorization: 'Bearer crm-token', 'X-Team': 'support' },
      timeout_ms: 12000,
      enabled: false,
    });
    // header values are write-only: masked from the first answer on
    expect(full).toMatchObject({
      name: 'CRM sync',
      enabled: false,
      timeout_ms: 12000,
      headers: { Authorization: '***', 'X-Team': '***' },
    });
    expect(full.event_types).toHaveLength(5);
  });

  it('GET and the list show the secret masked only, never in full', async () => {
    const created = await create(valid({ name: 'masked' }));
    const secret: string = created.signing_secret;
    const masked = `whsec_…${secret.slice(-4)}`;

    const one = await call('GET', `/${created.id}`);
    expect(one.status).toBe(200);
    expect(one.body).toEqual({ ...created, signing_secret: masked });

    const list = await call('GET', '');
    expect(list.status).toBe(200);
    expect(list.body.data.find((e: { id: string }) => e.id === created.id)).toEqual({
      ...created,
      signing_secret: masked,
    });
    expect(JSON.stringify(list.body)).not.toContain(secret);
    expect(JSON.stringify(one.body)).not.toContain(secret);

    const patched = await call('PATCH', `/${created.id}`, { name: 'renamed' });
    expect(JSON.stringify(patched.body)).not.toContain(secret);
    expect(patched.body.signing_secret).toBe(masked);
  });

  it('PATCH changes only the given fields and moves updated_at', async () => {
    const created = await create(valid({ name: 'before', headers: { 'X-A': '1' } }));
    await advanceClock(t, 90);
    const r = await call('PATCH', `/${created.id}`, {
      name: 'after',
      url: 'https://other.example.com/x',
      enabled: false,
      event_types: ['handoff.created', 'alerts.triggered'],
      headers: { 'X-B': '2' },
      timeout_ms: 30000,
    });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({
      id: created.id,
      name: 'after',
      url: 'https://other.example.com/x',
      enabled: false,
      event_types: ['handoff.created', 'alerts.triggered'],
      headers: { 'X-B': '***' },
      timeout_ms: 30000,
      created_at: created.created_at,
    });
    expect(Date.parse(r.body.updated_at) - Date.parse(created.created_at)).toBe(90_000);

    const partial = await call('PATCH', `/${created.id}`, { enabled: true });
    expect(partial.body).toMatchObject({ name: 'after', enabled: true, timeout_ms: 30000, headers: { 'X-B': '***' } });
    expect((await call('GET', `/${created.id}`)).body).toEqual(partial.body);
  });

  it('rotate-secret answers a new full secret once; reads show its last four', async () => {
    const created = await create();
    const r = await call('POST', `/${created.id}/rotate-secret`);
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ signing_secret: expect.stringMatching(/^whsec_[a-z2-7]{40}$/) });
    expect(r.body.signing_secret).not.toBe(created.signing_secret);
    expect((await call('GET', `/${created.id}`)).body.signing_secret).toBe(`whsec_…${r.body.signing_secret.slice(-4)}`);
  });

  it('DELETE answers 204; the endpoint is gone from every route', async () => {
    const created = await create();
    const r = await call('DELETE', `/${created.id}`);
    expect(r.status).toBe(204);
    expect(r.body).toBeNull();
    for (const [method, path] of [
      ['GET', `/${created.id}`],
      ['PATCH', `/${created.id}`],
      ['DELETE', `/${created.id}`],
      ['POST', `/${created.id}/rotate-secret`],
      ['GET', `/${created.id}/deliveries`],
    ]) {
      expectEnvelope(
        await call(method, path, method === 'PATCH' ? { name: 'x' } : undefined),
        404,
        'WEBHOOK_ENDPOINT_NOT_FOUND',
      );
    }
    expect((await call('GET', '')).body.data.map((e: { id: string }) => e.id)).not.toContain(created.id);
  });

  it('a new endpoint has no deliveries yet; limit is validated', async () => {
    const created = await create();
    const r = await call('GET', `/${created.id}/deliveries`);
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ data: [] });
    expect((await call('GET', `/${created.id}/deliveries?limit=100`)).status).toBe(200);
    for (const limit of ['0', '101', 'abc', '1.5'])
      expectFieldError(await call('GET', `/${created.id}/deliveries?limit=${limit}`), 'limit');
  });

  it('validation errors answer 400 naming the field', async () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ event_types: ['conversation.started'] }, 'url'],
      [valid({ url: 42 }), 'url'],
      [valid({ url: 'not a url' }), 'url'],
      [valid({ url: 'ftp://files.example.com/x' }), 'url'],
      [valid({ url: 'https://user:pw@example.com/x' }), 'url'],
      [{ url: 'https://example.com/x' }, 'event_types'],
      [valid({ event_types: [] }), 'event_types'],
      [valid({ event_types: 'conversation.started' }), 'event_types'],
      [valid({ event_types: ['conversation.started', 'conversation.deleted'] }), 'event_types'],
      [valid({ event_types: ['handoff.created', 'handoff.created'] }), 'event_types'],
      [valid({ timeout_ms: 999 }), 'timeout_ms'],
      [valid({ timeout_ms: 30001 }), 'timeout_ms'],
      [valid({ timeout_ms: 1500.5 }), 'timeout_ms'],
      [valid({ timeout_ms: '5000' }), 'timeout_ms'],
      [valid({ enabled: 'yes' }), 'enabled'],
      [valid({ name: '' }), 'name'],
      [valid({ name: 'n'.repeat(201) }), 'name'],
      [valid({ name: null }), 'name'],
      [valid({ headers: ['x'] }), 'headers'],
      [valid({ headers: { 'X-Webhook-Signature': 'forged' } }), 'headers.X-Webhook-Signature'],
      [valid({ headers: { 'Content-Type': 'text/plain' } }), 'headers.Content-Type'],
      [valid({ headers: { 'X-A': 5 } }), 'headers.X-A'],
      [valid({ headers: { 'bad header': 'v' } }), 'headers.bad header'],
      [valid({ signing_secret: 'whsec_mine' }), 'signing_secret'],
    ];
    for (const [body, field] of cases) expectFieldError(await call('POST', '', body), field);

    const created = await create();
    for (const [body, field] of [
      [{ url: 'http://example.com/x' }, 'url'],
      [{ event_types: [] }, 'event_types'],
      [{ timeout_ms: 50 }, 'timeout_ms'],
      [{ headers: { Host: 'evil' } }, 'headers.Host'],
      [{ enabled: null }, 'enabled'],
    ] as Array<[Record<string, unknown>, string]>) {
      expectFieldError(await call('PATCH', `/${created.id}`, body), field);
    }
    // nothing changed
    expect((await call('GET', `/${created.id}`)).body).toEqual({
      ...created,
      signing_secret: `whsec_…${created.signing_secret.slice(-4)}`,
    });

    const malformed = await request(`${t.url}${BASE}`, {
      method: 'POST',
      rawBody: '{"url": ',
      headers: withKey(key, { 'content-type': 'application/json' }),
    });
    expectEnvelope(malformed, 400, 'INVALID_JSON');
  });

  it('url must be https; plain http only to a loopback host, and only with WEBHOOK_ALLOW_HTTP=1', async () => {
    expectFieldError(await call('POST', '', valid({ url: 'http://hooks.example.com/x' })), 'url');
    expectFieldError(await call('POST', '', valid({ url: 'http://10.1.2.3/x' })), 'url');
    expect((await call('POST', '', valid({ url: 'http://127.0.0.1:9/x' }))).status).toBe(201);
    expect((await call('POST', '', valid({ url: 'http://localhost:9/x' }))).status).toBe(201);

    const strict = await startTestApp({ PARLEY_TEST_CLOCK: '1' });
    try {
      const account = await createAccount(strict, 'Strict Co');
      const strictKey = (await operatorKey(strict, account, { permissions: ['alerts'] })).key;
      const r = await request(`${strict.url}${BASE}`, {
        body: valid({ url: 'http://127.0.0.1:9/x' }),
        headers: withKey(strictKey),
      });
      expectFieldError(r, 'url');
      expect(r.body.error_message).toBe('url must use https');
      expect((await request(`${strict.url}${BASE}`, { body: valid(), headers: withKey(strictKey) })).status).toBe(201);
    } finally {
      await strict.close();
    }
  });

  it('401 without a valid key, 403 without the alerts permission, on every route', async () => {
    const created = await create();
    const routes: Array<[string, string]> = [
      ['GET', ''],
      ['POST', ''],
      ['GET', `/${created.id}`],
      ['PATCH', `/${created.id}`],
      ['DELETE', `/${created.id}`],
      ['POST', `/${created.id}/rotate-secret`],
      ['GET', `/${created.id}/deliveries`],
    ];
    for (const [method, path] of routes) {
      const body = method === 'POST' && path === '' ? valid() : method === 'PATCH' ? { name: 'x' } : undefined;
      expectEnvelope(await request(`${t.url}${BASE}${path}`, { method, body }), 401);
      expectEnvelope(await call(method, path, body, 'sk_notakeyatall'), 401);
      expectEnvelope(await call(method, path, body, noAlerts), 403, 'PERMISSION_DENIED');
    }
    // nothing happened to it
    expect((await call('GET', `/${created.id}`)).status).toBe(200);
  });

  it("another account's endpoint answers 404; a malformed id 422", async () => {
    const mine = await create();
    const theirs = await create(valid(), foreignKey);
    for (const [method, path] of [
      ['GET', `/${theirs.id}`],
      ['PATCH', `/${theirs.id}`],
      ['DELETE', `/${theirs.id}`],
      ['POST', `/${theirs.id}/rotate-secret`],
      ['GET', `/${theirs.id}/deliveries`],
      ['GET', '/whe_doesnotexist0000'],
    ]) {
      expectEnvelope(
        await call(method, path, method === 'PATCH' ? { name: 'x' } : undefined),
        404,
        'WEBHOOK_ENDPOINT_NOT_FOUND',
      );
    }
    expect((await call('GET', '')).body.data.map((e: { id: string }) => e.id)).not.toContain(theirs.id);
    expect((await call('GET', '', undefined, foreignKey)).body.data.map((e: { id: string }) => e.id)).toEqual([
      theirs.id,
    ]);
    expect((await call('GET', `/${theirs.id}`, undefined, foreignKey)).status).toBe(200);

    for (const bad of ['not-an-id', 'whe_', 'whe_UPPER1234', 'ar_abcdefgh12', mine.id.replace('whe_', 'whx_')]) {
      for (const [method, path] of [
        ['GET', `/${bad}`],
        ['PATCH', `/${bad}`],
        ['DELETE', `/${bad}`],
        ['POST', `/${bad}/rotate-secret`],
        ['GET', `/${bad}/deliveries`],
      ]) {
        const body = expectEnvelope(
          await call(method, path, method === 'PATCH' ? { name: 'x' } : undefined),
          422,
          'INVALID_WEBHOOK_ENDPOINT_ID',
        );
        expect(body.errors).toEqual([{ field: 'id', message: 'malformed id' }]);
      }
    }
  });

  it('ten endpoints per account: the 11th answers 409; deleted ones do not count', async () => {
    const limitKey = key;
    const ids: string[] = [];
    for (let i = 0; i < 10; i++) ids.push((await create(valid({ name: `e${i}` }), limitKey)).id);
    expectEnvelope(await call('POST', '', valid({ name: 'eleventh' }), limitKey), 409, 'WEBHOOK_ENDPOINT_LIMIT');
    expect((await call('GET', '', undefined, limitKey)).body.data).toHaveLength(10);
    // other accounts are not affected
    expect((await call('POST', '', valid(), foreignKey)).status).toBe(201);

    expect((await call('DELETE', `/${ids[3]}`, undefined, limitKey)).status).toBe(204);
    expect((await call('POST', '', valid({ name: 'replacement' }), limitKey)).status).toBe(201);
    expectEnvelope(await call('POST', '', valid({ name: 'twelfth' }), limitKey), 409, 'WEBHOOK_ENDPOINT_LIMIT');
  });

  it('Idempotency-Key on POST replays the first answer and creates nothing twice', async () => {
    const idemKey = key;
    const post = (body: unknown) =>
      request(`${t.url}${BASE}`, { body, headers: withKey(idemKey, { 'idempotency-key': 'create-once' }) });
    const first = await post(valid());
    const again = await post(valid());
    expect(first.status).toBe(201);
    expect(again.status).toBe(201);
    expect(again.body).toEqual(first.body);
    expect((await call('GET', '', undefined, idemKey)).body.data).toHaveLength(1);
    expectEnvelope(await post(valid({ name: 'other' })), 409, 'IDEMPOTENCY_KEY_REUSED');
  });

  it("every change is an event on the account's endpoints stream; secrets and header values only sealed", async () => {
    const token = 'receiver-token-9f8e7d6c5b4a';
    const created = await create(valid({ name: 'audited', headers: { Authorization: `Bearer ${token}` } }));
    expect(
      (await call('PATCH', `/${created.id}`, { timeout_ms: 9000, headers: { Authorization: `Bearer ${token}` } }))
        .status,
    ).toBe(200);
    // the same values again: nothing changed, nothing recorded
    expect(
      (await call('PATCH', `/${created.id}`, { timeout_ms: 9000, headers: { Authorization: `Bearer ${token}` } }))
        .status,
    ).toBe(200);
    const rotated = (await call('POST', `/${created.id}/rotate-secret`)).body.signing_secret as string;
    expect((await call('DELETE', `/${created.id}`)).status).toBe(204);

    const store: EventStore = t.app.get(EVENT_STORE);
    const events = await store.readStream(`webhook-endpoints-${accountId.replace(/^ws-/, '')}`);
    expect(events.map((e) => e.type)).toEqual([
      'WebhookEndpointCreated',
      'WebhookEndpointUpdated',
      'WebhookEndpointSecretRotated',
      'WebhookEndpointDeleted',
    ]);
    expect(events[0].data).toMatchObject({
      endpointId: created.id,
      name: 'audited',
      url: valid().url,
      eventTypes: ['conversation.started'],
      secretLast4: created.signing_secret.slice(-4),
    });
    expect(events[1].data).toMatchObject({ endpointId: created.id, changes: { timeoutMs: 9000 } });
    expect(Object.keys((events[1].data as { changes: object }).changes)).toEqual(['timeoutMs']);
    expect(events[2].data).toMatchObject({ endpointId: created.id, secretLast4: rotated.slice(-4) });
    // who did it: the calling key
    expect(events.map((e) => e.metadata.actor)).toEqual(events.map(() => keyId));

    // The log on disk (file and write-ahead log) holds the endpoint, never a secret or a header value.
    const log = ['events.sqlite', 'events.sqlite-wal']
      .map((file) => path.join(t.dataDir, file))
      .filter((file) => fs.existsSync(file))
      .map((file) => fs.readFileSync(file).toString('latin1'))
      .join('');
    expect(log).toContain(created.id);
    for (const plaintext of [created.signing_secret, rotated, token]) expect(log).not.toContain(plaintext);
  });
});
