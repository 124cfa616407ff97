import http from 'node:http';
import { oneYearAhead } from './helpers/agents-fixture';
import { startTestApp, type TestApp } from './helpers/test-app';
import type { Json } from './helpers/json';

/** fetch cannot set Host: a raw request can, as a client behind DNS would send it. */
function call(
  t: TestApp,
  host: string,
  path: string,
  headers: Record<string, string> = {},
  body?: unknown,
): Promise<{ status: number; body: Json }> {
  const url = new URL(t.url);
  const data = body === undefined ? undefined : JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: url.hostname,
        port: url.port,
        path,
        method: data ? 'POST' : 'GET',
        headers: { host, ...(data ? { 'content-type': 'application/json' } : {}), ...headers },
      },
      (res) => {
        let text = '';
        res.on('data', (c) => (text += c));
        res.on('end', () => resolve({ status: res.statusCode!, body: text ? JSON.parse(text) : null }));
      },
    );
    req.on('error', reject);
    req.end(data);
  });
}

describe('regional hosts (PUBLIC_DOMAIN)', () => {
  let t: TestApp;
  let usKey: string;
  let ukKey: string;
  let usAccount: string;
  let ukAccount: string;
  const BUILD = 'api.us.example.test';

  beforeAll(async () => {
    t = await startTestApp({ PUBLIC_DOMAIN: 'example.test', REGION: 'us' });
    const op = { 'x-operator-token': t.operatorToken };
    usAccount = (await call(t, 'anything', '/admin/v1/accounts', op, { name: 'US', region: 'us' })).body.accountId;
    ukAccount = (await call(t, 'anything', '/admin/v1/accounts', op, { name: 'UK', region: 'uk' })).body.accountId;
    const key = { name: 'k', agents: 'all', permissions: ['agents', 'keys'], expiresAt: oneYearAhead() };
    usKey = (await call(t, 'anything', `/admin/v1/accounts/${usAccount}/api-keys`, op, key)).body.key;
    ukKey = (await call(t, 'anything', `/admin/v1/accounts/${ukAccount}/api-keys`, op, key)).body.key;
  });
  afterAll(async () => t.close());

  it('serves the build API on the build host of its region', async () => {
    expect((await call(t, BUILD, `/v1/accounts/${usAccount}/agents`, { 'x-api-key': usKey })).status).toBe(200);
    expect((await call(t, `${BUILD}:443`, '/v1/api-keys/self', { 'x-api-key': usKey })).status).toBe(200);
  });

  it('answers 404 on the platform host, on another region, and for an account of another region', async () => {
    for (const host of ['api.us-1.platform.example.test', 'api.uk.example.test', 'api.eu.example.test']) {
      const r = await call(t, host, `/v1/accounts/${usAccount}/agents`, { 'x-api-key': usKey });
      expect(r).toMatchObject({ status: 404, body: { success: false, error_code: 'WRONG_HOST' } });
    }
    const foreign = await call(t, BUILD, `/v1/accounts/${ukAccount}/agents`, { 'x-api-key': ukKey });
    expect(foreign).toMatchObject({ status: 404, body: { error_code: 'ACCOUNT_NOT_FOUND' } });
  });

  it('answers 400 for a host without a region prefix', async () => {
    for (const host of ['example.test', 'api.example.test', 'localhost']) {
      expect(await call(t, host, '/v1/api-keys/self', { 'x-api-key': usKey })).toMatchObject({
        status: 400,
        body: { error_code: 'HOST_WITHOUT_REGION' },
      });
    }
  });

  it('keeps operator and health routes on every host', async () => {
    expect((await call(t, 'localhost', '/healthz')).status).toBe(200);
    expect((await call(t, 'whatever', '/admin/v1/accounts', { 'x-operator-token': t.operatorToken })).status).toBe(200);
  });
});
