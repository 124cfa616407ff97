import { WsAdapter } from '@nestjs/platform-ws';
import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import type { Logger } from 'pino';
import { WebSocketServer, type WebSocket } from 'ws';
import type { AuthFailureThrottle } from '../auth/auth-failure-throttle';
import { DomainError } from '../errors/domain-error';
import { correlationIdFor } from '../http/correlation';
import { checkHost } from '../http/hosts';
import type { HandshakeGate } from './handshake-gate';
import { refuseUpgrade } from './refuse-upgrade';
import { WS_MAX_FRAME_BYTES } from './ws-limits';

type WsData = string | Buffer | ArrayBuffer | Buffer[];

/** A frame as UTF-8 text, however `ws` delivered it. */
function frameText(data: WsData): string {
  return typeof data === 'string'
    ? data
    : Buffer.isBuffer(data)
      ? data.toString('utf8')
      : Array.isArray(data)
        ? Buffer.concat(data).toString('utf8')
        : Buffer.from(data).toString('utf8');
}

/**
 * Calls `handle` with each frame of `ws` as UTF-8 text, straight from the socket. What a gateway's
 * `handleConnection` uses instead of `@SubscribeMessage`: Nest's message path runs every frame
 * through RxJS, the global pipes and the interceptors, which a raw protocol frame needs none of
 * and which were a sixth of a web chat message's garbage (bench/README.md).
 */
export function onFrames(ws: WebSocket, handle: (raw: string) => void): void {
  ws.on('message', (data: WsData) => handle(frameText(data)));
}

const gates = new WeakMap<WebSocketServer, HandshakeGate<unknown>>();

/** A gateway's `afterInit(server)` names who decides its handshakes; a server without a gate admits none. */
export function gateHandshakes<T>(server: WebSocketServer, gate: HandshakeGate<T>): void {
  gates.set(server, gate as HandshakeGate<unknown>);
}

export interface ParleyWsAdapterDeps {
  logger: Logger;
  /** failed-credential throttle per client address, shared with HTTP */
  failures: AuthFailureThrottle;
  /** the client's address: the socket's peer, or X-Forwarded-For's client when the peer is a trusted proxy */
  clientOf: (request: IncomingMessage) => string | undefined;
  /** PUBLIC_DOMAIN and REGION: the host rule of HTTP routes (http/hosts.ts) applies to upgrades too; null: any host */
  hosts: { domain: string; region: string } | null;
}

const normalizePath = (path: string) => `/${path.replace(/^\/+|\/+$/g, '')}`;

/**
 * Nest's WsAdapter on the application's own HTTP server, with the answers Parley's clients rely
 * on: Nest's adapter destroys a refused or unknown-path upgrade without a word, while here every
 * refusal is a real HTTP status with the error envelope (contract §2). A handshake is decided by
 * the gateway's gate before `ws` completes it, so a refused client never holds a socket; the
 * failed-login throttle applies as on HTTP. An upgrade never passes Fastify's hooks, so the host
 * rule (PUBLIC_DOMAIN) is applied here, with the refusal an HTTP request gets. Frames larger than
 * 128 KiB close the socket (1009).
 */
export class ParleyWsAdapter extends WsAdapter {
  private readonly servers = new Map<string, WebSocketServer>();
  private listening: Server | null = null;
  private readonly onUpgrade = (request: IncomingMessage, socket: Duplex, head: Buffer) =>
    void this.dispatch(request, socket, head);

  constructor(
    /** the application's HTTP server (`app.getHttpServer()`) */
    httpServer: Server,
    private readonly deps: ParleyWsAdapterDeps,
  ) {
    super(httpServer);
  }

  override create(port: number, options: Record<string, unknown> & { path?: string } = {}): WebSocketServer {
    const { path, server, namespace, ...wsOptions } = options;
    // every gateway shares the HTTP server (its port, its TLS, its shutdown): a second listener would bypass all that
    if (port !== 0 || typeof path !== 'string' || server !== undefined || namespace !== undefined)
      throw new Error('a Parley gateway takes a path, and no port, server or namespace');
    const key = normalizePath(path);
    if (this.servers.has(key)) throw new Error(`two gateways at ${key}`);
    const wss = new WebSocketServer({
      maxPayload: WS_MAX_FRAME_BYTES,
      perMessageDeflate: false,
      clientTracking: true,
      ...wsOptions,
      noServer: true,
    });
    wss.on('error', (error) => this.deps.logger.error({ err: error, path: key }, 'WebSocket server error'));
    this.servers.set(key, wss);
    this.listen();
    return wss;
  }

  /** A gateway without `@SubscribeMessage` handlers reads its frames itself (onFrames): Nest's stream per socket is not set up. */
  override bindMessageHandlers(
    client: WebSocket,
    handlers: Parameters<WsAdapter['bindMessageHandlers']>[1],
    transform: Parameters<WsAdapter['bindMessageHandlers']>[2],
  ): void {
    if (handlers.length > 0) super.bindMessageHandlers(client, handlers, transform);
  }

  override async close(server: WebSocketServer): Promise<void> {
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    for (const ws of server.clients) ws.terminate();
    await closed;
  }

  override async dispose(): Promise<void> {
    this.listening?.off('upgrade', this.onUpgrade);
    this.listening = null;
    this.servers.clear();
  }

  private listen(): void {
    if (this.listening) return;
    const server = this.httpServer as Server | undefined;
    if (!server) throw new Error('ParleyWsAdapter needs the HTTP server');
    server.on('upgrade', this.onUpgrade);
    this.listening = server;
  }

  private async dispatch(request: IncomingMessage, socket: Duplex, head: Buffer): Promise<void> {
    const correlationId = correlationIdFor(request);
    socket.on('error', () => socket.destroy());
    let url: URL;
    try {
      url = new URL(request.url ?? '/', 'http://localhost');
    } catch {
      return refuseUpgrade(socket, new DomainError('BAD_REQUEST', 'malformed request target', 400), correlationId);
    }
    if (this.deps.hosts) {
      // on the path that routes the upgrade: a raw path with dot segments must not slip past its family
      const { domain, region } = this.deps.hosts;
      const verdict = checkHost(request.headers.host, url.pathname, domain, region);
      if (!verdict.ok)
        return refuseUpgrade(socket, new DomainError(verdict.code, verdict.message, verdict.status), correlationId);
    }
    const server = this.servers.get(url.pathname);
    const gate = server && gates.get(server);
    if (!server || !gate)
      return refuseUpgrade(
        socket,
        new DomainError('NOT_FOUND', `no WebSocket endpoint at ${url.pathname}`, 404),
        correlationId,
      );
    let admitted: unknown;
    try {
      // a refused access token (chat) or key (desk) counts against the address, like on HTTP
      admitted = await this.deps.failures.attempt(this.deps.clientOf(request), () => gate.admit(request, url));
    } catch (error) {
      if (error instanceof DomainError) return refuseUpgrade(socket, error, correlationId);
      this.deps.logger.error({ err: error, reqId: correlationId }, 'WebSocket handshake failed');
      return refuseUpgrade(
        socket,
        new DomainError('INTERNAL_ERROR', 'internal error; the request was not completed', 500),
        correlationId,
      );
    }
    // the client may have gone while the handshake was checked
    if (socket.destroyed) return gate.abandon(admitted);
    let opened = false;
    // ws answers a malformed upgrade itself (400) without calling back: what admit reserved must still go back
    socket.once('close', () => !opened && gate.abandon(admitted));
    server.handleUpgrade(request, socket, head, (ws: WebSocket) => {
      opened = true;
      // a client's protocol errors (a bad frame, one over the limit) are its own, not the server's
      ws.on('error', (error) => this.deps.logger.debug({ err: error, path: url.pathname }, 'WebSocket client error'));
      server.emit('connection', ws, request, admitted);
    });
  }
}
