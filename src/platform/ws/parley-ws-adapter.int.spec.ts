import 'reflect-metadata';
import { Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { WebSocketGateway, type OnGatewayConnection, type OnGatewayInit } from '@nestjs/websockets';
import type { IncomingMessage } from 'node:http';
import { connect } from 'node:net';
import pino from 'pino';
import WebSocket, { type WebSocketServer } from 'ws';
import { patient } from '../../../test/support/patience';
import { AuthFailureThrottle } from '../auth/auth-failure-throttle';
import { DomainError } from '../errors/domain-error';
import type { HandshakeGate } from './handshake-gate';
import { gateHandshakes, onFrames, ParleyWsAdapter } from './parley-ws-adapter';
import { WS_MAX_FRAME_BYTES } from './ws-limits';

/** A gate the tests steer through the query: `?who=` admits, `?refuse=` refuses, `?crash` throws, `?hold` waits for `release`. */
class TestGate implements HandshakeGate<{ who: string }> {
  readonly abandoned: string[] = [];
  private held: Array<() => void> = [];

  async admit(_request: IncomingMessage, url: URL): Promise<{ who: string }> {
    const q = url.searchParams;
    if (q.has('crash')) throw new Error('a bug, with a stack the client must not see');
    if (q.has('refuse'))
      throw new DomainError('API_KEY_INVALID', 'no such key', Number(q.get('refuse')), null, [], {
        'x-reason': 'test',
      });
    if (q.has('hold')) await new Promise<void>((resolve) => this.held.push(resolve));
    return { who: q.get('who') ?? 'someone' };
  }

  abandon(admitted: { who: string }): void {
    this.abandoned.push(admitted.who);
  }

  release(): void {
    for (const resolve of this.held.splice(0)) resolve();
  }
}

const gate = new TestGate();

@WebSocketGateway({ path: '/echo' })
class EchoGateway implements OnGatewayInit, OnGatewayConnection {
  afterInit(server: WebSocketServer) {
    gateHandshakes(server, gate);
  }

  handleConnection(ws: WebSocket, _request: IncomingMessage, admitted: { who: string }) {
    onFrames(ws, (raw) =>
      ws.send(
        raw === 'listeners?'
          ? `listeners ${ws.listenerCount('message')}`
          : raw.length > 100
            ? `got ${raw.length} characters`
            : `got ${raw}`,
      ),
    );
    ws.send(`hello ${admitted.who}`);
  }
}

/** A gateway that never names a gate: its path admits nobody. */
@WebSocketGateway({ path: '/ungated' })
class UngatedGateway {}

@Module({ providers: [EchoGateway, UngatedGateway] })
class TestModule {}

type Refusal = {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Record<string, unknown>;
};

function refused(url: string, headers: Record<string, string> = {}): Promise<Refusal> {
  const ws = new WebSocket(url, { headers });
  return new Promise((resolve, reject) => {
    ws.once('open', () => (ws.close(), reject(new Error('handshake was accepted'))));
    ws.once('unexpected-response', (_req, res) => {
      let text = '';
      res.on('data', (chunk: Buffer) => (text += chunk.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: JSON.parse(text) }));
    });
    ws.once('error', reject);
  });
}

/** Opens a socket and collects what it is sent. */
async function open(url: string) {
  const ws = new WebSocket(url);
  const frames: string[] = [];
  const waiters: Array<() => void> = [];
  ws.on('message', (data) => {
    frames.push(data.toString());
    waiters.splice(0).forEach((w) => w());
  });
  const closed = new Promise<{ code: number }>((resolve) => ws.on('close', (code) => resolve({ code })));
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('error', reject);
  });
  const next = async (n: number) => {
    const deadline = Date.now() + patient(2000);
    while (frames.length < n) {
      if (Date.now() > deadline) throw new Error(`only ${frames.length} frames: ${JSON.stringify(frames)}`);
      await new Promise<void>((resolve) => {
        waiters.push(resolve);
        setTimeout(resolve, 50);
      });
    }
    return frames[n - 1];
  };
  return { ws, frames, next, closed };
}

describe('ParleyWsAdapter', () => {
  let app: NestFastifyApplication;
  let base: string;
  let port: number;

  beforeAll(async () => {
    app = await NestFactory.create<NestFastifyApplication>(TestModule, new FastifyAdapter(), { logger: false });
    app.useWebSocketAdapter(
      new ParleyWsAdapter(app.getHttpServer(), {
        logger: pino({ level: 'silent' }),
        // one refused credential per address, refilling slowly: the throttle test spends it last
        failures: new AuthFailureThrottle(0.001, 1),
        clientOf: (request) => request.socket.remoteAddress,
        hosts: null,
      }),
    );
    await app.listen(0, '127.0.0.1');
    port = (app.getHttpServer().address() as { port: number }).port;
    base = `ws://127.0.0.1:${port}`;
  });
  afterAll(async () => app.close());

  it('hands an admitted socket what its gate returned, and every frame whole as text (not {event, data})', async () => {
    const c = await open(`${base}/echo?who=ada`);
    expect(await c.next(1)).toBe('hello ada');
    const frame = JSON.stringify({ type: 'EVENT_TYPE_USER_MESSAGE', payload: { text: 'hi' } });
    c.ws.send(frame);
    expect(await c.next(2)).toBe(`got ${frame}`);
    c.ws.send(Buffer.from('{"binary":"ü"}'), { binary: true });
    expect(await c.next(3)).toBe('got {"binary":"ü"}');
    c.ws.send('not json at all');
    expect(await c.next(4)).toBe('got not json at all');
    // the gateway's own reader only: Nest's per-frame stream (RxJS, pipes, interceptors) is not bound
    c.ws.send('listeners?');
    expect(await c.next(5)).toBe('listeners 1');
    c.ws.close();
    await c.closed;
  });

  it('a frame of 128 KiB is read; one byte more closes the socket with 1009', async () => {
    const c = await open(`${base}/echo`);
    await c.next(1);
    c.ws.send('x'.repeat(WS_MAX_FRAME_BYTES));
    expect(await c.next(2)).toBe(`got ${WS_MAX_FRAME_BYTES} characters`);
    c.ws.send('x'.repeat(WS_MAX_FRAME_BYTES + 1));
    expect((await c.closed).code).toBe(1009);
  });

  it("refuses with the gate's status, the envelope, its headers and the correlation id", async () => {
    const r = await refused(`${base}/echo?refuse=403`, { 'x-correlation-id': 'abc-123' });
    expect(r.status).toBe(403);
    expect(r.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(r.headers['x-reason']).toBe('test');
    expect(r.headers['x-correlation-id']).toBe('abc-123');
    expect(r.body).toEqual({
      success: false,
      error: 'no such key',
      error_id: 'abc-123',
      error_code: 'API_KEY_INVALID',
      error_message: 'no such key',
      data: null,
    });
  });

  it('answers 404 with the envelope for a path no gateway serves, or one whose gateway named no gate', async () => {
    for (const path of ['/nowhere', '/echo/', '/ungated']) {
      const r = await refused(`${base}${path}`);
      expect(r.status).toBe(404);
      expect(r.body).toMatchObject({ error_code: 'NOT_FOUND', error_message: `no WebSocket endpoint at ${path}` });
      expect(r.body.error_id).toBe(r.headers['x-correlation-id']);
    }
  });

  it('a gate that fails answers 500 with the envelope, never its stack', async () => {
    const r = await refused(`${base}/echo?crash`);
    expect(r.status).toBe(500);
    expect(r.body).toMatchObject({ error_code: 'INTERNAL_ERROR' });
    expect(JSON.stringify(r.body)).not.toMatch(/stack|a bug/);
  });

  it('gives an admitted handshake back to its gate when the client left before the upgrade completed', async () => {
    const socket = connect(port, '127.0.0.1');
    await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
    socket.write(
      'GET /echo?hold&who=gone HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n' +
        'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n',
    );
    await new Promise((resolve) => setTimeout(resolve, 100));
    socket.destroy();
    await new Promise((resolve) => setTimeout(resolve, 100));
    gate.release();
    const deadline = Date.now() + patient(2000);
    while (!gate.abandoned.includes('gone') && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 20));
    expect(gate.abandoned).toContain('gone');
  });

  it('gives it back too when ws itself refuses the upgrade (not a WebSocket handshake: 400)', async () => {
    const answer = await new Promise<string>((resolve) => {
      const socket = connect(port, '127.0.0.1', () =>
        socket.write('GET /echo?who=h2c HTTP/1.1\r\nHost: x\r\nUpgrade: h2c\r\nConnection: Upgrade\r\n\r\n'),
      );
      let text = '';
      socket.on('data', (chunk) => (text += chunk.toString()));
      socket.on('close', () => resolve(text));
    });
    expect(answer).toMatch(/^HTTP\/1.1 400/);
    const deadline = Date.now() + patient(2000);
    while (!gate.abandoned.includes('h2c') && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 20));
    expect(gate.abandoned).toContain('h2c');
  });

  it('counts a refused credential against the address: past the burst, 429 before the gate is asked', async () => {
    expect((await refused(`${base}/echo?refuse=401`)).status).toBe(401);
    const r = await refused(`${base}/echo?who=right`);
    expect(r.status).toBe(429);
    expect(r.body).toMatchObject({ error_code: 'AUTH_FAILURES_THROTTLED' });
    expect(Number(r.headers['retry-after'])).toBeGreaterThan(0);
  });
});
