import http from 'node:http';
import { oneYearAhead } from '../helpers/agents-fixture';
import { startTestApp, type TestApp } from '../helpers/test-app';

/** A raw request with a chosen Host (fetch cannot set it), as a browser on Studio's page sends it. */
function call(
  t: TestApp,
  method: string,
  host: string,
  path: string,
  headers: Record<string, string> = {},
  body?: unknown,
): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }> {
  const url = new URL(t.url);
  const data = body === undefined ? undefined : JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: url.hostname,
        port: url.port,
        path,
        method,
        headers: { host, ...(data ? { 'content-type': 'application/json' } : {}), ...headers },
      },
      (res) => {
        let text = '';
        res.on('data', (c) => (text += c));
        res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: text }));
      },
    );
    req.on('error', reject);
    req.end(data);
  });
}

const STUDIO = 'https://studio.example.test';
const BUILD = 'api.us.example.test';
const PLATFORM = 'api.us-1.platform.example.test';

describe('CORS for Studio on its own host (PUBLIC_DOMAIN, STUDIO_ORIGINS unset)', () => {
  let t: TestApp;
  let account: string;
  let key: string;

  beforeAll(async () => {
    t = await startTestApp({ PUBLIC_DOMAIN: 'example.test', REGION: 'us' });
    const op = { 'x-operator-token': t.operatorToken };
    account = JSON.parse(
      (await call(t, 'POST', 'x', '/admin/v1/accounts', op, { name: 'US', region: 'us' })).body,
    ).accountId;
    const spec = { name: 'k', agents: 'all', permissions: ['agents', 'conversations'], expiresAt: oneYearAhead() };
    key = JSON.parse((await call(t, 'POST', 'x', `/admin/v1/accounts/${account}/api-keys`, op, spec)).body).key;
  });
  afterAll(async () => t.close());

  it('answers the Studio origin’s preflight on both API hosts, with the auth headers allowed', async () => {
    for (const [host, path] of [
      [BUILD, `/v1/accounts/${account}/agents`],
      [PLATFORM, `/v3/${account}/PROJECT-x/conversations`],
    ]) {
      const r = await call(t, 'OPTIONS', host, path, {
        origin: STUDIO,
        'access-control-request-method': 'GET',
        'access-control-request-headers': 'x-api-key',
      });
      expect(r.status).toBe(204);
      expect(r.headers['access-control-allow-origin']).toBe(STUDIO);
      expect(r.headers['access-control-allow-headers']).toContain('x-api-key');
      expect(r.headers['access-control-allow-methods']).toContain('DELETE');
      expect(r.headers['access-control-allow-credentials']).toBeUndefined();
    }
    const actual = await call(t, 'GET', BUILD, `/v1/accounts/${account}/agents`, { origin: STUDIO, 'x-api-key': key });
    expect(actual.status).toBe(200);
    expect(actual.headers['access-control-allow-origin']).toBe(STUDIO);
    expect(actual.headers['access-control-expose-headers']).toContain('x-correlation-id');
  });

  it('refuses another origin: its preflight is 403 and its answers carry no CORS header', async () => {
    for (const origin of [
      'https://evil.example.net',
      'https://studio.example.test.evil.net',
      'http://localhost:5173',
    ]) {
      const r = await call(t, 'OPTIONS', BUILD, `/v1/accounts/${account}/agents`, {
        origin,
        'access-control-request-method': 'DELETE',
        'access-control-request-headers': 'x-api-key',
      });
      expect(r.status).toBe(403);
      expect(JSON.parse(r.body)).toMatchObject({ success: false, error_code: 'ORIGIN_NOT_ALLOWED' });
      expect(r.headers['access-control-allow-origin']).toBeUndefined();
      const actual = await call(t, 'GET', BUILD, `/v1/accounts/${account}/agents`, { origin, 'x-api-key': key });
      expect(actual.status).toBe(200);
      expect(actual.headers['access-control-allow-origin']).toBeUndefined();
    }
  });
});
