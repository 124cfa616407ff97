import net from 'node:net';
import { startTestApp, type TestApp } from '../helpers/test-app';
import { patient } from '../support/patience';
import { heldConnections } from './edge-fixture';

/**
 * Issue 47, finding 1, spread over many addresses (contract §21): the per-address cap cannot see
 * a flood from a hundred addresses, which would take every file descriptor. Past
 * HTTP_MAX_CONNECTIONS, each new connection closes the oldest idle one (never-served first), so a
 * client that comes with a request is answered while the flood is held.
 */
describe('HTTP_MAX_CONNECTIONS: idle connections make room for new ones', () => {
  const MAX = 20;
  let t: TestApp;
  let port: number;

  beforeAll(async () => {
    t = await startTestApp({ HTTP_MAX_CONNECTIONS: String(MAX), HTTP_KEEPALIVE_TIMEOUT_S: '120' });
    port = Number(new URL(t.url).port);
  });
  afterAll(async () => t.close());

  /** `count` connections that send nothing, from several addresses, each open once the server has it. */
  async function idleFlood(count: number): Promise<net.Socket[]> {
    const sockets: net.Socket[] = [];
    for (let i = 0; i < count; i++) {
      const socket = net.connect({ host: '127.0.0.1', port, localAddress: `127.0.1.${1 + (i % 10)}` });
      socket.on('error', () => undefined);
      await new Promise((resolve) => socket.once('connect', resolve));
      sockets.push(socket);
    }
    return sockets;
  }

  it('a served client gets in while twice the limit of idle connections keeps arriving', async () => {
    const flood = await idleFlood(MAX * 2);
    try {
      const client = await heldConnections(t.url, '127.0.0.50', 3);
      expect(client.held).toBe(3);
      client.close();
      // the oldest idle connections were the ones closed: the newest of the flood are still open
      const deadline = Date.now() + patient(5000);
      while (flood.slice(0, MAX).some((s) => !s.destroyed && s.readyState === 'open') && Date.now() < deadline)
        await new Promise((resolve) => setTimeout(resolve, 20));
      expect(flood.slice(0, MAX).every((s) => s.destroyed || s.readyState !== 'open')).toBe(true);
      expect(flood.at(-1)!.readyState).toBe('open');
    } finally {
      flood.forEach((s) => s.destroy());
    }
  });
});
