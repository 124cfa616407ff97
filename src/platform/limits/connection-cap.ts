import type { Server, Socket } from 'node:net';
import type { AddressTest } from '../net/cidr';
import { clientAddress } from '../net/client-address';

/** How many addresses a full listener looks at to find the one holding the most connections. */
const SAMPLE = 64;

/**
 * Open connections per client address, and in all (contract §21): at most `perAddress` from one
 * address (HTTP_MAX_CONNECTIONS_PER_ADDRESS), refused as they arrive, before a byte is read. Past
 * `total` (HTTP_MAX_CONNECTIONS, below the process's open-file limit) an address that already holds
 * its fair share (`total` over the addresses holding any) is refused too, and any other makes room
 * by closing an idle connection of the address holding the most: a flood spread over a hundred
 * addresses keeps what it holds, and a client that comes with a request still gets in. Refusing
 * the newcomer, not closing the flood's old sockets, is what keeps a reconnecting flood from
 * churning. A trusted proxy's own address is neither capped nor shared (every client behind it
 * shares it). WebSocket sessions are never closed to make room.
 */
export class ConnectionCap {
  private readonly open = new Map<string, Set<Socket>>();
  private readonly sessions = new WeakSet<Socket>();
  private total = 0;

  constructor(
    private readonly perAddress: number,
    private readonly exempt: AddressTest,
    private readonly maxTotal = 0,
  ) {}

  /**
   * Counts `server`'s connections from their first moment; `refuse` is handed each connection
   * refused, and must end it. Listens before the server's own listeners (HTTP's parser), so a
   * refused socket is never parsed.
   */
  guard(server: Server, refuse: (socket: Socket) => void): void {
    if (this.perAddress <= 0 && this.maxTotal <= 0) return;
    server.prependListener('connection', (socket: Socket) => {
      if (!this.admit(socket)) refuse(socket);
    });
    server.on('upgrade', (_request: unknown, socket: Socket) => this.sessions.add(socket));
  }

  /** Counts `socket` until it closes; false (and not counted) when it is refused. */
  admit(socket: Socket): boolean {
    const proxy = this.exempt(socket.remoteAddress);
    const address = proxy ? `proxy ${socket.remoteAddress}` : clientAddress(socket.remoteAddress);
    const held = this.open.get(address)?.size ?? 0;
    if (!proxy && this.perAddress > 0 && held >= this.perAddress) return false;
    if (this.maxTotal > 0 && this.total >= this.maxTotal) {
      if (!proxy && held >= this.fairShare(held)) return false;
      if (!this.makeRoom(address)) return false;
    }
    this.track(socket, address);
    return true;
  }

  /** Open connections counted for `address` (a raw socket address), for tests and metrics. */
  count(address: string): number {
    return this.open.get(clientAddress(address))?.size ?? 0;
  }

  private fairShare(held: number): number {
    return Math.max(1, Math.floor(this.maxTotal / (this.open.size + (held === 0 ? 1 : 0))));
  }

  /** Closes the oldest idle connection of the busiest address sampled (not `except`); false when none is idle. */
  private makeRoom(except: string): boolean {
    let busiest: Set<Socket> | undefined;
    let seen = 0;
    for (const [address, sockets] of this.open) {
      if (address !== except && (!busiest || sockets.size > busiest.size)) busiest = sockets;
      if (++seen >= SAMPLE) break;
    }
    for (const socket of busiest ?? []) {
      if (this.sessions.has(socket) || (socket as Socket & { _httpMessage?: unknown })._httpMessage) continue;
      socket.destroy();
      return true;
    }
    return false;
  }

  private track(socket: Socket, address: string): void {
    let sockets = this.open.get(address);
    if (!sockets) this.open.set(address, (sockets = new Set()));
    sockets.add(socket);
    this.total++;
    socket.once('close', () => {
      this.total--;
      sockets.delete(socket);
      if (sockets.size === 0 && this.open.get(address) === sockets) this.open.delete(address);
    });
  }
}
