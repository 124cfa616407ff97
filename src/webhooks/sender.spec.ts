import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { OutboundHttp } from '../platform/outbound/outbound-http';
import { webhookSender } from './sender';

/** The webhook sender over the outbound module, against a real HTTP server on 127.0.0.1. */
describe('webhookSender', () => {
  let server: http.Server;
  let base: string;
  const seen: Array<{ method: string; headers: http.IncomingHttpHeaders; body: string }> = [];

  beforeAll(async () => {
    server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        seen.push({ method: req.method!, headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
        if (req.url === '/hang') return;
        if (req.url === '/redirect') return res.writeHead(302, { location: '/200' }).end();
        // a large body: the outcome is the status line, the body is not waited for
        res.writeHead(Number(req.url!.slice(1))).end('x'.repeat(100_000));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  const sendWebhook = webhookSender(new OutboundHttp({ allowLoopback: true }));
  const send = (path: string, timeoutMs = 2000) =>
    sendWebhook({
      url: `${base}${path}`,
      body: '{"a":"é"}',
      headers: { 'content-type': 'application/json', 'x-custom': 'v' },
      timeoutMs,
    });

  it('POSTs the exact body with the given headers and answers the status', async () => {
    expect(await send('/204')).toEqual({ statusCode: 204 });
    const last = seen[seen.length - 1];
    expect(last).toMatchObject({ method: 'POST', body: '{"a":"é"}' });
    expect(last.headers).toMatchObject({
      'content-type': 'application/json',
      'x-custom': 'v',
      'content-length': String(Buffer.byteLength('{"a":"é"}')),
    });
  });

  it('answers error statuses as they are, and does not follow redirects', async () => {
    expect(await send('/500')).toEqual({ statusCode: 500 });
    const before = seen.length;
    expect(await send('/redirect')).toEqual({ statusCode: 302 });
    expect(seen.length).toBe(before + 1);
  });

  it('gives up after the timeout, and reports failures by class', async () => {
    expect(await send('/hang', 300)).toEqual({ error: 'timeout' });
    expect(
      await webhookSender(new OutboundHttp({ allowLoopback: false }))({
        url: `${base}/200`,
        body: '{}',
        headers: {},
        timeoutMs: 2000,
      }),
    ).toEqual({ error: 'address_refused' });
  });
});
