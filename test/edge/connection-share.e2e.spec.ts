import { startTestApp, type TestApp } from '../helpers/test-app';
import { heldConnections } from './edge-fixture';

/**
 * Issue 47, finding 1, spread over many addresses (contract §21): the per-address cap cannot see
 * a flood from a hundred addresses, which would take every file descriptor. Past
 * HTTP_MAX_CONNECTIONS, an address holding its share is refused, and a newcomer gets in by
 * closing an idle connection of the address holding the most.
 */
describe('HTTP_MAX_CONNECTIONS: a fair share per address once full', () => {
  const MAX = 20;
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp({ HTTP_MAX_CONNECTIONS: String(MAX), HTTP_KEEPALIVE_TIMEOUT_S: '120' });
  });
  afterAll(async () => t.close());

  it('a flood from a few addresses fills the listener; a client from a new address still gets in', async () => {
    // one address takes what it can (the listener is not full yet), then four more
    const hog = await heldConnections(t.url, '127.0.1.1', MAX);
    const others = [];
    for (let i = 2; i <= 5; i++) others.push(await heldConnections(t.url, `127.0.1.${i}`, 5));
    try {
      expect(hog.held).toBe(MAX);
      // full: each newcomer made room by closing one of the hog's idle connections, up to its share
      for (const other of others) expect(other.held).toBeGreaterThanOrEqual(4);
      const client = await heldConnections(t.url, '127.0.0.60', 1);
      expect(client.held).toBe(1);
      client.close();
      // the hog, holding more than its share, is refused while the listener is full
      const more = await heldConnections(t.url, '127.0.1.1', 1);
      expect(more.refused).toBe(1);
    } finally {
      hog.close();
      others.forEach((o) => o.close());
    }
  });
});
