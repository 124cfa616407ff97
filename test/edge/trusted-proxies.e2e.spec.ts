import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { createApp } from '../../src/app.factory';
import { loadConfig } from '../../src/platform/config/config';
import { deskHandshake, from } from '../helpers/from-address';
import { createAccount, operatorKey } from '../helpers/keys-fixtures';
import { expectEnvelope, startTestApp, type TestApp } from '../helpers/test-app';
import { heldConnections } from './edge-fixture';

const PROXY = '127.0.0.2';
const STRANGER = '127.0.0.3';
const WRONG_KEY = 'sk_wrongwrongwrongwrongwrongwrongwrongwrong';

/**
 * Issue 47, finding 3 (contract §21): behind nginx every client shares the proxy's address, so a
 * per-address rule that ignores X-Forwarded-For lets one client's bad keys lock out everyone.
 * TRUSTED_PROXIES names the proxies whose X-Forwarded-For is believed; from anyone else it is not.
 */
describe('TRUSTED_PROXIES: per-address rules see the client behind a trusted proxy', () => {
  const BURST = 3;
  let t: TestApp;
  let accountId: string;
  let key: string;

  beforeAll(async () => {
    // one failure back every 20 s: nothing refills within a test on any machine
    t = await startTestApp({
      AUTH_FAILURE_RATE: '0.05',
      AUTH_FAILURE_BURST: String(BURST),
      TRUSTED_PROXIES: `${PROXY}/32, 2001:db8::/32`,
      HTTP_MAX_CONNECTIONS_PER_ADDRESS: '4',
      HTTP_KEEPALIVE_TIMEOUT_S: '120',
    });
    accountId = await createAccount(t, 'Proxied');
    key = (await operatorKey(t, accountId)).key;
  });
  afterAll(async () => t.close());

  const agents = (address: string, apiKey: string, forwardedFor?: string) =>
    from(address, `${t.url}/v1/accounts/${accountId}/agents`, {
      headers: { 'x-api-key': apiKey, ...(forwardedFor ? { 'x-forwarded-for': forwardedFor } : {}) },
    });

  it("one client's wrong keys through the proxy throttle that client only, not everyone behind it", async () => {
    for (let i = 0; i < BURST; i++) expectEnvelope(await agents(PROXY, WRONG_KEY, '203.0.113.1'), 401);
    expectEnvelope(await agents(PROXY, key, '203.0.113.1'), 429, 'AUTH_FAILURES_THROTTLED');
    // another client behind the same proxy, and a chain whose client is a third address
    expect((await agents(PROXY, key, '203.0.113.2')).status).toBe(200);
    expect((await agents(PROXY, key, '203.0.113.1, 203.0.113.9')).status).toBe(200);
  });

  it('a hop the trusted proxy only passed on is not believed: the right-most untrusted address is the client', async () => {
    // the client wrote "203.0.113.1" itself; the proxy appended the address it saw (203.0.113.5)
    for (let i = 0; i < BURST; i++) expectEnvelope(await agents(PROXY, WRONG_KEY, '203.0.113.4, 203.0.113.5'), 401);
    expectEnvelope(await agents(PROXY, key, '203.0.113.6, 203.0.113.5'), 429, 'AUTH_FAILURES_THROTTLED');
  });

  it('X-Forwarded-For from an address that is not a trusted proxy is ignored', async () => {
    for (let i = 0; i < BURST; i++) expectEnvelope(await agents(STRANGER, WRONG_KEY, `198.51.100.${i}`), 401);
    expectEnvelope(await agents(STRANGER, key, '198.51.100.200'), 429, 'AUTH_FAILURES_THROTTLED');
  });

  it('WebSocket handshakes follow the same rule', async () => {
    for (let i = 0; i < BURST; i++)
      expectEnvelope(await deskHandshake(t, PROXY, WRONG_KEY, { 'x-forwarded-for': '203.0.113.30' }), 401);
    expectEnvelope(
      await deskHandshake(t, PROXY, key, { 'x-forwarded-for': '203.0.113.30' }),
      429,
      'AUTH_FAILURES_THROTTLED',
    );
    expect((await deskHandshake(t, PROXY, key, { 'x-forwarded-for': '203.0.113.31' })).status).toBe(101);
  });

  it("the proxy's own connections are not capped; anyone else's are", async () => {
    const proxied = await heldConnections(t.url, PROXY, 10);
    try {
      expect(proxied.refused).toBe(0);
      expect((await agents(PROXY, key, '203.0.113.40')).status).toBe(200);
    } finally {
      proxied.close();
    }
    const direct = await heldConnections(t.url, '127.0.0.4', 10);
    try {
      expect(direct.held).toBe(4);
      expect(direct.refused).toBe(6);
    } finally {
      direct.close();
    }
  });
});

describe("the request log names the client's address", () => {
  it('the client behind a trusted proxy, the peer otherwise', async () => {
    const lines: Array<{ msg?: string; ip?: string; url?: string }> = [];
    const logger = pino({ level: 'info' }, { write: (line: string) => lines.push(JSON.parse(line)) });
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-edge-log-'));
    const app = await createApp(
      loadConfig({ DATA_DIR: dir, OPERATOR_TOKEN: 'test-operator-token-0123456789', TRUSTED_PROXIES: PROXY }),
      logger,
    );
    try {
      await app.listen({ port: 0, host: '127.0.0.1' });
      const url = `http://127.0.0.1:${(app.getHttpServer().address() as { port: number }).port}`;
      await from(PROXY, `${url}/healthz?via=proxy`, { headers: { 'x-forwarded-for': '203.0.113.77' } });
      await from(STRANGER, `${url}/healthz?via=stranger`, { headers: { 'x-forwarded-for': '203.0.113.78' } });
      const logged = (via: string) => lines.find((line) => line.msg === 'request' && line.url?.includes(via))?.ip;
      expect(logged('via=proxy')).toBe('203.0.113.77');
      expect(logged('via=stranger')).toBe(STRANGER);
    } finally {
      await app.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
