import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { EVENT_STORE, type EventStore } from '../../src/event-store/event-store.port';
import { INTERNAL_URLS, LOOPBACK_COUNT } from '../fixtures/internal-urls';
import { createAccount, operatorKey, withKey } from '../helpers/keys-fixtures';
import { expectEnvelope, request, startTestApp, type JsonResponse, type TestApp } from '../helpers/test-app';
import { Receiver, waitForAttempts } from './receiver';
import type { Json } from '../helpers/json';

/**
 * Issue 30, finding 6: webhooks must not reach internal addresses, in any written form, at
 * creation or at delivery; URLs and header values that cannot be sent are refused at the door;
 * deliveries report error classes, never socket text.
 */
const BASE = '/v1/webhook-endpoints';
const valid = (extra: Record<string, unknown> = {}) => ({
  url: 'https://hooks.example.com/parley',
  event_types: ['alerts.triggered'],
  ...extra,
});

async function alertsKey(t: TestApp, name: string) {
  const accountId = await createAccount(t, name);
  return {
    accountId,
    bare: accountId.replace(/^ws-/, ''),
    key: (await operatorKey(t, accountId, { permissions: ['alerts'] })).key as string,
  };
}

const call = (t: TestApp, key: string, method: string, route = '', body?: unknown): Promise<JsonResponse> =>
  request(`${t.url}${BASE}${route}`, { method, body, headers: withKey(key) });

function expectUrlRefused(r: JsonResponse, url: string) {
  if (r.status !== 400) throw new Error(`${url} answered ${r.status}: ${JSON.stringify(r.body)}`);
  const body = expectEnvelope(r, 400, 'VALIDATION_ERROR');
  expect(body.errors.map((e: { field: string }) => e.field)).toEqual(['url']);
}

describe('webhook outbound safety', () => {
  let strict: TestApp;
  let local: TestApp;

  beforeAll(async () => {
    strict = await startTestApp();
    local = await startTestApp({ WEBHOOK_ALLOW_HTTP: '1' });
  });

  afterAll(async () => {
    await strict?.close();
    await local?.close();
  });

  it(`refuses all ${INTERNAL_URLS.length} internal URL forms on POST and PATCH with 400, and stores none`, async () => {
    const { key } = await alertsKey(strict, 'Scanner Co');
    for (const url of INTERNAL_URLS) expectUrlRefused(await call(strict, key, 'POST', '', valid({ url })), url);
    const created = (await call(strict, key, 'POST', '', valid())).body;
    for (const url of INTERNAL_URLS.slice(0, 12))
      expectUrlRefused(await call(strict, key, 'PATCH', `/${created.id}`, { url }), url);
    const list = (await call(strict, key, 'GET')).body.data;
    expect(list.map((e: { url: string }) => e.url)).toEqual(['https://hooks.example.com/parley']);
  });

  it('WEBHOOK_ALLOW_HTTP=1 allows the loopback forms only, never private ranges or metadata', async () => {
    const { key } = await alertsKey(local, 'Local Co');
    for (const url of INTERNAL_URLS.slice(LOOPBACK_COUNT))
      expectUrlRefused(await call(local, key, 'POST', '', valid({ url })), url);
    for (const url of ['http://127.0.0.1:9/x', 'https://[::1]:9/x', 'http://localhost:9/x'])
      expect((await call(local, key, 'POST', '', valid({ url }))).status).toBe(201);
  });

  it('refuses a URL with CR/LF, whitespace or control characters, and userinfo', async () => {
    const { key } = await alertsKey(strict, 'Smuggler Co');
    const created = (await call(strict, key, 'POST', '', valid())).body;
    for (const url of [
      'https://hooks.example.com/a\r\nX-Injected: 1',
      'https://hooks.example.com/\n',
      'https://hooks.example.com/a b',
      '\thttps://hooks.example.com/',
      'https://hooks.example.com/\u0000',
      'https://admin:pw@hooks.example.com/',
    ]) {
      expectUrlRefused(await call(strict, key, 'POST', '', valid({ url })), JSON.stringify(url));
      expectUrlRefused(await call(strict, key, 'PATCH', `/${created.id}`, { url }), JSON.stringify(url));
    }
    expect((await call(strict, key, 'GET', `/${created.id}`)).body.url).toBe('https://hooks.example.com/parley');
  });

  it('refuses header values the HTTP client could never send, and hop-by-hop or signature names', async () => {
    const { key } = await alertsKey(strict, 'Headers Co');
    const cases: Array<[Record<string, string>, string]> = [
      [{ 'X-Token': 'a\nb' }, 'headers.X-Token'],
      [{ 'X-Token': 'a\r\nX-Evil: 1' }, 'headers.X-Token'],
      [{ 'X-Token': 'a\u0000b' }, 'headers.X-Token'],
      [{ 'X-Token': 'a\u000bb' }, 'headers.X-Token'],
      [{ 'X-Token': 'line\u2028break' }, 'headers.X-Token'],
      [{ 'X-Token': 'caf\u00e9' }, 'headers.X-Token'],
      [{ 'X-Token': '\u{1F600}' }, 'headers.X-Token'],
      [{ Connection: 'close' }, 'headers.Connection'],
      [{ 'Proxy-Authorization': 'Basic x' }, 'headers.Proxy-Authorization'],
      [{ 'X-Parley-Signature': 'forged' }, 'headers.X-Parley-Signature'],
      [{ 'Bad:Name': 'v' }, 'headers.Bad:Name'],
    ];
    for (const [headers, field] of cases) {
      const r = await call(strict, key, 'POST', '', valid({ headers }));
      const body = expectEnvelope(r, 400, 'VALIDATION_ERROR');
      expect(body.errors.map((e: { field: string }) => e.field)).toEqual([field]);
    }
    expect((await call(strict, key, 'GET')).body.data).toEqual([]);
  });

  it('a stored URL that is internal now is refused at delivery: recorded as address_refused, never sent, never retried', async () => {
    // Created while loopback receivers were allowed; the platform restarts without WEBHOOK_ALLOW_HTTP.
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-outbound-'));
    const receiver = await Receiver.start();
    let t = await startTestApp({ WEBHOOK_ALLOW_HTTP: '1' }, dataDir);
    try {
      const acme = await alertsKey(t, 'Moved Co');
      const endpoint = (
        await call(
          t,
          acme.key,
          'POST',
          '',
          valid({ url: receiver.url, headers: { Authorization: 'Bearer receiver-secret' } }),
        )
      ).body;
      expect(endpoint.id).toMatch(/^whe_/);
      await t.close();
      t = await startTestApp({}, dataDir);

      const store: EventStore = t.app.get(EVENT_STORE);
      const ruleId = `ar_${randomUUID().replace(/-/g, '').slice(0, 12)}`;
      const at = new Date().toISOString();
      await store.append(`alert-rule-${ruleId}`, [
        {
          id: randomUUID(),
          type: 'AlertRuleStateChanged',
          data: {
            ruleId,
            accountId: acme.bare,
            projectId: null,
            name: 'Slow answers',
            metric: 'turn_latency_p95',
            from: 'ok',
            to: 'alert',
            since: at,
            currentValue: 1234,
            evaluatedAt: at,
          },
          metadata: {
            schemaVersion: 1,
            actor: 'system:alert-evaluator',
            correlationId: randomUUID(),
            causationId: null,
            occurredAt: at,
          },
        },
      ]);
      const list = async () => (await call(t, acme.key, 'GET', `/${endpoint.id}/deliveries`)).body.data as Json[];
      const [attempt] = await waitForAttempts(list, 1);
      expect(attempt).toMatchObject({
        attempt: 1,
        status_code: null,
        error: 'address_refused',
        outcome: 'failed',
        next_attempt_at: null,
        delivery_status: 'failed',
      });
      await receiver.expectNoMoreThan(0);
    } finally {
      await t.close();
      await receiver.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
