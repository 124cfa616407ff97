import type { Server, Socket } from 'node:net';
import type { AddressTest } from '../net/cidr';
import { clientAddress } from '../net/client-address';

/**
 * At most `max` open connections per client address on a listener (contract §21,
 * HTTP_MAX_CONNECTIONS_PER_ADDRESS): the one past it is refused as it arrives, before a byte of
 * it is read, so one address holding thousands of idle sockets cannot spend the process's file
 * descriptors. A trusted proxy's own address is not capped (every client behind it shares it).
 */
export class ConnectionCap {
  private readonly open = new Map<string, number>();

  constructor(
    private readonly max: number,
    private readonly exempt: AddressTest,
  ) {}

  /**
   * Counts `server`'s connections from their first moment; `refuse` is handed each connection
   * past the cap, and must end it. Listens before the server's own listeners (HTTP's parser), so
   * a refused socket is never parsed.
   */
  guard(server: Server, refuse: (socket: Socket) => void): void {
    if (this.max <= 0) return;
    server.prependListener('connection', (socket: Socket) => {
      if (!this.admit(socket)) refuse(socket);
    });
  }

  /** Counts `socket` against its address until it closes; false (and not counted) when the address is full. */
  admit(socket: Socket): boolean {
    if (this.max <= 0 || this.exempt(socket.remoteAddress)) return true;
    const address = clientAddress(socket.remoteAddress);
    const count = this.open.get(address) ?? 0;
    if (count >= this.max) return false;
    this.open.set(address, count + 1);
    socket.once('close', () => {
      const left = (this.open.get(address) ?? 1) - 1;
      if (left <= 0) this.open.delete(address);
      else this.open.set(address, left);
    });
    return true;
  }

  /** Open connections counted for `address` (a raw socket address), for tests and metrics. */
  count(address: string): number {
    return this.open.get(clientAddress(address)) ?? 0;
  }
}
