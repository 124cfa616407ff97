import net from 'node:net';
import { startTestApp, type TestApp } from '../helpers/test-app';
import { patient } from '../support/patience';
import { bodyOf, closedByServer } from './edge-fixture';

/**
 * Issue 47, finding 1 (contract §21): nothing timed out. An idle connection, half-sent headers, a
 * keep-alive connection after its answer and a body stopped halfway were all still open minutes
 * later. Short timeouts here; each case waits for the server to close the socket (bounded).
 */
describe('HTTP timeouts: headers, whole request, keep-alive', () => {
  let t: TestApp;
  let port: number;

  beforeAll(async () => {
    t = await startTestApp({
      HTTP_HEADERS_TIMEOUT_S: '1',
      HTTP_REQUEST_TIMEOUT_S: '2',
      HTTP_KEEPALIVE_TIMEOUT_S: '1',
    });
    port = Number(new URL(t.url).port);
  });
  afterAll(async () => t.close());

  const connect = () => net.connect({ host: '127.0.0.1', port });
  const BOUND = patient(10_000);

  it('a connection that sends nothing is answered 408 in the envelope and closed', async () => {
    const socket = connect();
    const answer = await closedByServer(socket, BOUND);
    expect(answer).toMatch(/^HTTP\/1\.1 408 /);
    expect(bodyOf(answer)).toMatchObject({ success: false, error_code: 'REQUEST_TIMEOUT', data: null });
  });

  it('headers that stop halfway are answered 408 and closed', async () => {
    const socket = connect();
    const closed = closedByServer(socket, BOUND);
    socket.write('GET /healthz HTTP/1.1\r\nHost: localhost\r\nX-Slow: ');
    const answer = await closed;
    expect(answer).toMatch(/^HTTP\/1\.1 408 /);
    expect(bodyOf(answer).error_code).toBe('REQUEST_TIMEOUT');
  });

  it('a body that stops halfway is answered 408 and closed', async () => {
    const socket = connect();
    const closed = closedByServer(socket, BOUND);
    socket.write(
      'POST /admin/v1/accounts HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n' +
        `x-operator-token: ${t.operatorToken}\r\nContent-Length: 500000\r\n\r\n{"name":`,
    );
    const answer = await closed;
    expect(answer).toMatch(/^HTTP\/1\.1 408 /);
    expect(bodyOf(answer)).toMatchObject({ success: false, error_code: 'REQUEST_TIMEOUT' });
  });

  it('an idle keep-alive connection is closed after its answer, without another one', async () => {
    const socket = connect();
    const closed = closedByServer(socket, BOUND);
    socket.write('GET /healthz HTTP/1.1\r\nHost: localhost\r\n\r\n');
    const answer = await closed;
    expect(answer).toMatch(/^HTTP\/1\.1 200 /);
    expect(answer.match(/HTTP\/1\.1 /g)).toHaveLength(1);
    expect(answer.toLowerCase()).toContain('keep-alive: timeout=1');
  });
});
