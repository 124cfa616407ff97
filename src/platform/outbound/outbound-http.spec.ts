import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { isOutboundError, OutboundHttp, type ResolvedAddress, type Resolver } from './outbound-http';

/** The outbound sender against real servers on 127.0.0.1 (the loopback allowance of WEBHOOK_ALLOW_HTTP=1). */
describe('OutboundHttp', () => {
  let server: http.Server;
  let port: number;
  let base: string;
  const seen: Array<{ method: string; url: string; headers: http.IncomingHttpHeaders; body: string }> = [];

  beforeAll(async () => {
    server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        seen.push({
          method: req.method!,
          url: req.url!,
          headers: req.headers,
          body: Buffer.concat(chunks).toString('utf8'),
        });
        if (req.url === '/hang') return;
        if (req.url === '/redirect') return res.writeHead(302, { location: '/landed' }).end();
        if (req.url === '/big') return res.writeHead(200).end('x'.repeat(5000));
        res.writeHead(Number(req.url!.slice(1)) || 200, { 'x-answer': 'yes' }).end('{"ok":true}');
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
    base = `http://127.0.0.1:${port}`;
  });

  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  const local = new OutboundHttp({ allowLoopback: true });
  const strict = new OutboundHttp({ allowLoopback: false });

  it('sends the method, headers and exact body, and answers status, headers and body', async () => {
    const result = await local.send({
      url: `${base}/201`,
      method: 'PUT',
      headers: { 'content-type': 'application/json', 'x-custom': 'v' },
      body: '{"a":"é"}',
      timeoutMs: 2000,
    });
    expect(isOutboundError(result)).toBe(false);
    expect(result).toMatchObject({ status: 201, headers: { 'x-answer': 'yes' } });
    expect(!isOutboundError(result) && result.body.toString()).toBe('{"ok":true}');
    expect(seen[seen.length - 1]).toMatchObject({
      method: 'PUT',
      body: '{"a":"é"}',
      headers: { 'x-custom': 'v', 'content-length': String(Buffer.byteLength('{"a":"é"}')) },
    });
  });

  it('does not follow a redirect: the 3xx is the answer', async () => {
    const before = seen.length;
    expect(await local.send({ url: `${base}/redirect`, timeoutMs: 2000 })).toMatchObject({
      status: 302,
      headers: { location: '/landed' },
    });
    expect(seen.slice(before).map((s) => s.url)).toEqual(['/redirect']);
  });

  it('times out a silent receiver and a resolver that never answers', async () => {
    const started = Date.now();
    expect(await local.send({ url: `${base}/hang`, timeoutMs: 300 })).toEqual({ error: 'timeout' });
    expect(Date.now() - started).toBeGreaterThanOrEqual(290);
    const stuck = new OutboundHttp({
      allowLoopback: true,
      resolve: () => new Promise<ResolvedAddress[]>(() => undefined),
    });
    expect(await stuck.send({ url: `http://localhost:${port}/200`, timeoutMs: 200 })).toEqual({ error: 'timeout' });
  });

  it('reads the body up to a limit; 0 answers at the status line', async () => {
    expect(await local.send({ url: `${base}/big`, timeoutMs: 2000, maxResponseBytes: 1000 })).toEqual({
      error: 'response_too_large',
    });
    const statusOnly = await local.send({ url: `${base}/big`, timeoutMs: 2000, maxResponseBytes: 0 });
    expect(statusOnly).toMatchObject({ status: 200, body: Buffer.alloc(0) });
  });

  it('at the status line, lets go of a receiver that streams without end', async () => {
    let closed!: () => void;
    const socketClosed = new Promise<void>((resolve) => (closed = resolve));
    const endless = http.createServer((req, res) => {
      res.writeHead(200);
      const drip = setInterval(() => res.write('x'.repeat(1024)), 10);
      res.on('close', () => (clearInterval(drip), closed()));
    });
    await new Promise<void>((resolve) => endless.listen(0, '127.0.0.1', resolve));
    try {
      const port = (endless.address() as AddressInfo).port;
      expect(await local.send({ url: `http://127.0.0.1:${port}/`, timeoutMs: 500, maxResponseBytes: 0 })).toMatchObject(
        { status: 200 },
      );
      const held = await Promise.race([
        socketClosed.then(() => false),
        new Promise<boolean>((resolve) => setTimeout(() => resolve(true), 2000)),
      ]);
      expect(held).toBe(false);
    } finally {
      endless.closeAllConnections();
      await new Promise((resolve) => endless.close(resolve));
    }
  });

  it('connects to the address it checked: a resolver that answers differently later is not asked again', async () => {
    // Two receivers on one port: the first answer's address (127.0.0.2) and the later one's (127.0.0.1).
    const hits: string[] = [];
    const at = (name: string) => http.createServer((req, res) => (hits.push(name), res.writeHead(200).end()));
    const first = at('first');
    await new Promise<void>((resolve) => first.listen(0, '127.0.0.2', resolve));
    const shared = (first.address() as AddressInfo).port;
    const later = at('later');
    await new Promise<void>((resolve) => later.listen(shared, '127.0.0.1', resolve));
    try {
      const asked: string[] = [];
      const rebinding: Resolver = async (hostname) => {
        asked.push(hostname);
        return [{ address: asked.length === 1 ? '127.0.0.2' : '127.0.0.1', family: 4 }];
      };
      const pinned = new OutboundHttp({ allowLoopback: true, resolve: rebinding });
      expect(await pinned.send({ url: `http://rebind.localhost:${shared}/`, timeoutMs: 2000 })).toMatchObject({
        status: 200,
      });
      expect(asked).toEqual(['rebind.localhost']);
      expect(hits).toEqual(['first']);
      // the next send resolves afresh, once
      expect(await pinned.send({ url: `http://rebind.localhost:${shared}/`, timeoutMs: 2000 })).toMatchObject({
        status: 200,
      });
      expect(asked).toHaveLength(2);
      expect(hits).toEqual(['first', 'later']);
    } finally {
      for (const s of [first, later]) await new Promise((resolve) => s.close(resolve));
    }
  });

  it('a name that resolves inside is refused at send time, whatever it resolved to before', async () => {
    let inside = false;
    const resolver: Resolver = async () => [{ address: inside ? '10.0.0.7' : '127.0.0.1', family: 4 }];
    const sender = new OutboundHttp({ allowLoopback: true, resolve: resolver });
    expect(await sender.send({ url: `http://hooks.localhost:${port}/200`, timeoutMs: 2000 })).toMatchObject({
      status: 200,
    });
    inside = true;
    const before = seen.length;
    expect(await sender.send({ url: `http://hooks.localhost:${port}/200`, timeoutMs: 2000 })).toEqual({
      error: 'address_refused',
    });
    expect(seen.length).toBe(before);
  });

  it('refuses a name when any of its addresses is internal, and never connects', async () => {
    const before = seen.length;
    for (const addresses of [
      [{ address: '10.1.2.3', family: 4 }],
      [
        { address: '8.8.8.8', family: 4 },
        { address: '127.0.0.1', family: 4 },
      ],
      [{ address: '::ffff:169.254.169.254', family: 6 }],
      [{ address: 'fd00::1', family: 6 }],
    ]) {
      const resolver: Resolver = async () => addresses;
      expect(
        await new OutboundHttp({ allowLoopback: false, resolve: resolver }).send({
          url: `https://hooks.example.com:${port}/200`,
          timeoutMs: 2000,
        }),
      ).toEqual({ error: 'address_refused' });
    }
    // loopback without the allowance, literal or resolved
    expect(await strict.send({ url: `https://127.0.0.1:${port}/200`, timeoutMs: 2000 })).toEqual({
      error: 'address_refused',
    });
    expect(await strict.send({ url: `https://2130706433:${port}/200`, timeoutMs: 2000 })).toEqual({
      error: 'address_refused',
    });
    const toLoopback = new OutboundHttp({
      allowLoopback: false,
      resolve: async () => [{ address: '127.0.0.1', family: 4 }],
    });
    expect(await toLoopback.send({ url: `https://hooks.example.com:${port}/200`, timeoutMs: 2000 })).toEqual({
      error: 'address_refused',
    });
    // private ranges even with the allowance
    expect(await local.send({ url: `https://10.0.0.1:${port}/200`, timeoutMs: 2000 })).toEqual({
      error: 'address_refused',
    });
    expect(seen.length).toBe(before);
  });

  it('classifies failures, never passing on the socket text', async () => {
    const closed = net.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const closedPort = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    expect(await local.send({ url: `http://127.0.0.1:${closedPort}/x`, timeoutMs: 2000 })).toEqual({
      error: 'connect_failed',
    });
    // https to a plain http server: the handshake fails
    expect(await local.send({ url: `https://127.0.0.1:${port}/200`, timeoutMs: 2000 })).toEqual({
      error: 'tls_failed',
    });
    // a name that does not resolve
    const nowhere = new OutboundHttp({
      allowLoopback: false,
      resolve: async () => Promise.reject(Object.assign(new Error('getaddrinfo ENOTFOUND'), { code: 'ENOTFOUND' })),
    });
    expect(await nowhere.send({ url: 'https://nowhere.example.com/', timeoutMs: 2000 })).toEqual({
      error: 'connect_failed',
    });
    // a header value Node refuses to write, and a bad method: the request can never be sent
    expect(await local.send({ url: `${base}/200`, headers: { 'x-a': 'a\nb' }, timeoutMs: 2000 })).toEqual({
      error: 'invalid_request',
    });
    expect(await local.send({ url: `${base}/200`, method: 'GET /x HTTP/1.1\r\n', timeoutMs: 2000 })).toEqual({
      error: 'invalid_request',
    });
    expect(await local.send({ url: 'ftp://example.com/', timeoutMs: 2000 })).toEqual({ error: 'invalid_request' });
  });
});
