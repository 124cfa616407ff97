import dgram from 'node:dgram';
import net from 'node:net';
import { SipServer } from '../../src/sip/sip-server';
import { startTestApp, type TestApp } from '../helpers/test-app';
import { patient } from '../support/patience';

const options = (branch: string, transport: 'UDP' | 'TCP', contentLength: string) =>
  [
    'OPTIONS sip:+15550100001@127.0.0.1 SIP/2.0',
    `Via: SIP/2.0/${transport} 127.0.0.1:5099;branch=z9hG4bK-${branch}`,
    'From: <sip:probe@127.0.0.1>;tag=probe',
    'To: <sip:+15550100001@127.0.0.1>',
    `Call-ID: ${branch}@127.0.0.1`,
    'CSeq: 1 OPTIONS',
    'Max-Forwards: 70',
    `Content-Length: ${contentLength}`,
    '',
    '',
  ].join('\r\n');

/** The first line of the SIP server's answer to `text` over UDP. */
function overUdp(port: number, text: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = dgram.createSocket('udp4');
    const timer = setTimeout(() => {
      socket.close();
      reject(new Error('no SIP answer in time'));
    }, patient(3000));
    socket.on('message', (data) => {
      clearTimeout(timer);
      socket.close();
      resolve(data.toString('utf8').split('\r\n')[0]);
    });
    socket.send(text, port, '127.0.0.1');
  });
}

/**
 * Issue 47, findings 1 and 4 on the SIP listener: its TCP side takes the same per-address cap as
 * HTTP (contract §21), and a datagram whose Content-Length is negative, not a number or longer than
 * its body is a 400 (RFC 3261 §18.3), not a 200.
 */
describe('the SIP listener at the edge', () => {
  let t: TestApp;
  let port: number;

  beforeAll(async () => {
    t = await startTestApp({ SIP_LISTEN_PORT: '0', HTTP_MAX_CONNECTIONS_PER_ADDRESS: '3' });
    port = t.app.get(SipServer).address()!.port;
  });
  afterAll(async () => t.close());

  it.each([
    ['negative', '-5'],
    ['not a number', 'abc'],
    ['longer than the body', '99999'],
  ])('OPTIONS over UDP with a Content-Length %s is 400', async (_name, length) => {
    expect(await overUdp(port, options(`cl-${length}`, 'UDP', length))).toMatch(/^SIP\/2\.0 400 /);
  });

  it('OPTIONS over UDP with a right Content-Length is 200', async () => {
    expect(await overUdp(port, options('cl-ok', 'UDP', '0'))).toBe('SIP/2.0 200 OK');
  });

  it('TCP connections past the per-address cap are refused; other addresses still connect', async () => {
    const open: net.Socket[] = [];
    const outcome = (address: string, i: number) =>
      new Promise<'answered' | 'closed'>((resolve, reject) => {
        const socket = net.connect({ host: '127.0.0.1', port, localAddress: address });
        const timer = setTimeout(() => reject(new Error('no outcome in time')), patient(5000));
        socket.on('error', () => undefined);
        socket.on('data', () => {
          clearTimeout(timer);
          open.push(socket);
          resolve('answered');
        });
        socket.on('close', () => {
          clearTimeout(timer);
          resolve('closed');
        });
        socket.on('connect', () => socket.write(options(`tcp-${address}-${i}`, 'TCP', '0')));
      });
    try {
      const outcomes: string[] = [];
      for (let i = 0; i < 5; i++) outcomes.push(await outcome('127.0.0.6', i));
      expect(outcomes).toEqual(['answered', 'answered', 'answered', 'closed', 'closed']);
      expect(await outcome('127.0.0.7', 0)).toBe('answered');
      // a slot comes back when a connection closes
      const freed = new Promise((resolve) => open[0].once('close', resolve));
      open[0].destroy();
      await freed;
      expect(await eventuallyAnswered(() => outcome('127.0.0.6', 9))).toBe('answered');
    } finally {
      open.forEach((socket) => socket.destroy());
    }
  });
});

/** The server counts a closed connection once it sees the close: retry (bounded) until it has. */
async function eventuallyAnswered(attempt: () => Promise<string>): Promise<string> {
  const deadline = Date.now() + patient(5000);
  for (;;) {
    const result = await attempt();
    if (result === 'answered' || Date.now() > deadline) return result;
  }
}
