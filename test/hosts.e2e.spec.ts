import http from 'node:http';
import WebSocket from 'ws';
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

type Upgrade = { status: number; body: { success?: boolean; error_code?: string } | null };

/** Opens a WebSocket with a given Host, as a client behind DNS would: 101 (then closes it), or the refusal's status and body. */
function upgrade(t: TestApp, host: string, path: string): Promise<Upgrade> {
  const ws = new WebSocket(`${t.url.replace(/^http/, 'ws')}${path}`, { headers: { host } });
  return new Promise((resolve, reject) => {
    ws.once('open', () => {
      ws.close();
      resolve({ status: 101, body: null });
    });
    ws.once('unexpected-response', (_req, res) => {
      let text = '';
      res.on('data', (chunk: Buffer) => (text += chunk.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) }));
    });
    ws.once('error', reject);
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

  describe('on WebSocket upgrades (which never pass the HTTP hooks)', () => {
    const PLATFORM = 'api.us-1.platform.example.test';
    let deskPath: string;
    beforeAll(async () => {
      const op = { 'x-operator-token': t.operatorToken };
      const desk = { name: 'desk', agents: 'all', permissions: ['desk'], expiresAt: oneYearAhead() };
      const key = (await call(t, 'anything', `/admin/v1/accounts/${usAccount}/api-keys`, op, desk)).body.key;
      deskPath = `/desk/ws?api_key=${encodeURIComponent(key)}`;
    });

    it('opens the desk (a platform route) on the platform host of its region', async () => {
      expect((await upgrade(t, PLATFORM, deskPath)).status).toBe(101);
      expect((await upgrade(t, `${PLATFORM}:443`, deskPath)).status).toBe(101);
    });

    it('refuses the desk on another family or region with 404, and without a region with 400, as HTTP does', async () => {
      for (const host of [BUILD, 'api.uk-1.platform.example.test']) {
        expect(await upgrade(t, host, deskPath)).toMatchObject({
          status: 404,
          body: { success: false, error_code: 'WRONG_HOST' },
        });
      }
      for (const host of ['example.test', 'localhost']) {
        expect(await upgrade(t, host, deskPath)).toMatchObject({
          status: 400,
          body: { success: false, error_code: 'HOST_WITHOUT_REGION' },
        });
      }
      // decided on the path the upgrade is routed by: dot segments do not slip past the rule
      expect((await upgrade(t, BUILD, `/v1/../desk/ws?api_key=x`)).body?.error_code).toBe('WRONG_HOST');
      expect((await upgrade(t, 'localhost', `/x/../v1/anything`)).body?.error_code).toBe('HOST_WITHOUT_REGION');
    });

    it('keeps the web chat socket on every host, as its HTTP calls are', async () => {
      for (const host of ['localhost', BUILD, PLATFORM]) {
        // no session: refused by the chat's own admission, not by the host rule
        expect(await upgrade(t, host, '/ws')).toMatchObject({
          status: 400,
          body: { error_code: 'INVALID_CONNECTION_PARAMETERS' },
        });
      }
    });
  });
});
