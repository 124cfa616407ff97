import fs from 'node:fs';
import type { Server } from 'node:http';
import type { Socket } from 'node:net';

/**
 * Keeps the HTTP listener below the process's open-file limit (HTTP_MAX_CONNECTIONS): past it,
 * each new connection closes the oldest one that is doing nothing, first those that never sent a
 * request (an idle flood), then idle keep-alive ones; a connection with a request in flight is
 * never closed. The per-address cap cannot see a flood spread over many addresses; without this,
 * such a flood takes every descriptor and the kernel resets every other client's connect, as nginx
 * would without reusing its idle keep-alive connections. WebSocket upgrades leave the count: they
 * are sessions, not idle sockets.
 */
export class ConnectionShedding {
  private readonly open = new Map<Socket, true>();
  private readonly served = new WeakSet<Socket>();

  constructor(private readonly max: number) {}

  guard(server: Server): void {
    if (this.max <= 0) return;
    server.on('connection', (socket: Socket) => {
      this.open.set(socket, true);
      socket.once('close', () => this.open.delete(socket));
      if (this.open.size > this.max) this.shed(this.open.size - this.max);
    });
    server.on('request', (request: { socket: Socket }) => this.served.add(request.socket));
    server.on('upgrade', (_request: unknown, socket: Socket) => this.open.delete(socket));
  }

  /** Connections counted now (for tests and metrics). */
  get count(): number {
    return this.open.size;
  }

  private shed(excess: number): void {
    const closed = this.closeIdle(excess, (socket) => !this.served.has(socket));
    if (closed < excess) this.closeIdle(excess - closed, () => true);
  }

  private closeIdle(wanted: number, eligible: (socket: Socket) => boolean): number {
    let closed = 0;
    for (const socket of this.open.keys()) {
      if (closed >= wanted) break;
      if ((socket as Socket & { _httpMessage?: unknown })._httpMessage || !eligible(socket)) continue;
      this.open.delete(socket);
      socket.destroy();
      closed++;
    }
    return closed;
  }
}

/**
 * The default of HTTP_MAX_CONNECTIONS: 80% of the process's open-file limit (Linux reports it in
 * /proc/self/limits), leaving the rest to the stores, logs, SIP and outbound calls; 0 (no limit)
 * where the limit cannot be read.
 */
export function defaultMaxConnections(limits = '/proc/self/limits'): number {
  try {
    const line = fs
      .readFileSync(limits, 'utf8')
      .split('\n')
      .find((l) => l.startsWith('Max open files'));
    const soft = Number(line?.split(/\s{2,}/)[1]);
    return Number.isFinite(soft) && soft > 0 ? Math.floor(soft * 0.8) : 0;
  } catch {
    return 0;
  }
}
