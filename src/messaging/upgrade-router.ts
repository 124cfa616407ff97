import type { IncomingMessage, Server } from 'node:http';
import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import type { Logger } from 'pino';
import { AuthFailureThrottle } from '../platform/auth/auth-failure-throttle';
import { DomainError } from '../platform/errors/domain-error';
import { errorEnvelope } from '../platform/errors/error-envelope';
import { correlationIdFor, CORRELATION_HEADER } from '../platform/http/correlation';

export type UpgradeHandler = (
  request: IncomingMessage,
  socket: Duplex,
  head: Buffer,
  url: URL,
  correlationId: string,
) => Promise<void>;

/**
 * WebSocket handshakes arrive on the HTTP server's `upgrade` event, before any route runs: this
 * routes them by path, so a refused handshake can be answered with a real HTTP status and the
 * error envelope (the `ws` server runs in noServer mode and only completes accepted ones).
 */
export class UpgradeRouter {
  private readonly routes = new Map<string, UpgradeHandler>();
  private readonly listener = (request: IncomingMessage, socket: Duplex, head: Buffer) =>
    void this.dispatch(request, socket, head);

  constructor(
    private readonly server: Server,
    private readonly logger: Logger,
    private readonly failures: AuthFailureThrottle,
  ) {}

  route(path: string, handler: UpgradeHandler): void {
    this.routes.set(path, handler);
  }

  start(): void {
    this.server.on('upgrade', this.listener);
  }

  stop(): void {
    this.server.off('upgrade', this.listener);
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
    const handler = this.routes.get(url.pathname);
    if (!handler)
      return refuseUpgrade(
        socket,
        new DomainError('NOT_FOUND', `no WebSocket endpoint at ${url.pathname}`, 404),
        correlationId,
      );
    const address = request.socket.remoteAddress;
    try {
      this.failures.admit(address);
      await handler(request, socket, head, url, correlationId);
    } catch (error) {
      // a refused access token (chat) or key (desk) counts against the address, like on HTTP
      if (error instanceof DomainError)
        return refuseUpgrade(socket, this.failures.failed(address, error) as DomainError, correlationId);
      this.logger.error({ err: error, reqId: correlationId }, 'WebSocket handshake failed');
      refuseUpgrade(
        socket,
        new DomainError('INTERNAL_ERROR', 'internal error; the request was not completed', 500),
        correlationId,
      );
    }
  }
}

/** Answers a handshake with an HTTP error (status, envelope, headers) and closes the connection. */
export function refuseUpgrade(socket: Duplex, error: DomainError, correlationId: string): void {
  if (socket.destroyed) return;
  const body = JSON.stringify(errorEnvelope(correlationId, error.code, error.message, error.data));
  const headers: Record<string, string | number> = {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(body),
    [CORRELATION_HEADER]: correlationId,
    connection: 'close',
    ...error.headers,
  };
  const head = [
    `HTTP/1.1 ${error.status} ${STATUS_CODES[error.status] ?? ''}`,
    ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`),
  ].join('\r\n');
  socket.end(`${head}\r\n\r\n${body}`);
}
