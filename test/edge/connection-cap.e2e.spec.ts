import WebSocket from 'ws';
import { deskHandshake } from '../helpers/from-address';
import { createAccount, operatorKey } from '../helpers/keys-fixtures';
import { startTestApp, type TestApp } from '../helpers/test-app';
import { patient } from '../support/patience';
import { heldConnections } from './edge-fixture';

/**
 * Issue 47, finding 1 (contract §21): two clients held 28,000 idle connections and every other
 * request got "socket hang up". At most HTTP_MAX_CONNECTIONS_PER_ADDRESS open connections per
 * client address, on HTTP and on the WebSocket upgrades that share its listener.
 */
describe('HTTP_MAX_CONNECTIONS_PER_ADDRESS', () => {
  const CAP = 5;
  let t: TestApp;
  let key: string;

  beforeAll(async () => {
    t = await startTestApp({
      HTTP_MAX_CONNECTIONS_PER_ADDRESS: String(CAP),
      HTTP_KEEPALIVE_TIMEOUT_S: '120',
      // the desk's own per-key limit must not be what refuses the sockets here
      MESSAGING_MAX_DESK_SOCKETS_PER_KEY: '100',
    });
    key = (await operatorKey(t, await createAccount(t, 'Capped'))).key;
  });
  afterAll(async () => t.close());

  it('refuses the connections past the cap with 429 in the envelope; other addresses are served', async () => {
    const flood = await heldConnections(t.url, '127.0.0.20', CAP + 3);
    try {
      expect(flood.held).toBe(CAP);
      expect(flood.refused).toBe(3);
      const neighbour = await heldConnections(t.url, '127.0.0.21', 1);
      expect(neighbour.held).toBe(1);
      neighbour.close();
    } finally {
      flood.close();
    }
  });

  it('a closed connection gives its slot back', async () => {
    const first = await heldConnections(t.url, '127.0.0.22', CAP);
    expect(first.held).toBe(CAP);
    first.close();
    // the server counts the close when it sees it: ask again (bounded) until it has
    const deadline = Date.now() + patient(5000);
    let again = await heldConnections(t.url, '127.0.0.22', CAP);
    while (again.held < CAP && Date.now() < deadline) {
      again.close();
      again = await heldConnections(t.url, '127.0.0.22', CAP);
    }
    expect(again.held).toBe(CAP);
    again.close();
  });

  it('WebSocket upgrades count against the same cap', async () => {
    const sockets: WebSocket[] = [];
    try {
      for (let i = 0; i < CAP; i++) {
        const ws = new WebSocket(`${t.url.replace('http', 'ws')}/desk/ws?api_key=${encodeURIComponent(key)}`, {
          localAddress: '127.0.0.23',
          handshakeTimeout: patient(5000),
        });
        await new Promise((resolve, reject) => {
          ws.once('open', resolve);
          ws.once('error', reject);
        });
        sockets.push(ws);
      }
      await expect(deskHandshake(t, '127.0.0.23', key)).resolves.toMatchObject({
        status: 429,
        body: { error_code: 'TOO_MANY_CONNECTIONS' },
      });
      expect((await deskHandshake(t, '127.0.0.24', key)).status).toBe(101);
    } finally {
      sockets.forEach((ws) => ws.terminate());
    }
  });
});
