import type { IncomingMessage } from 'node:http';

/**
 * What a gateway decides during the HTTP upgrade, before the `101`: who may open a socket on its
 * path. Refusals are thrown as `DomainError`s and answered as HTTP errors with the envelope.
 */
export interface HandshakeGate<T> {
  /**
   * Admits the handshake and returns what the socket carries into `handleConnection` (its third
   * argument), or throws the `DomainError` the handshake is refused with. May reserve a slot.
   */
  admit(request: IncomingMessage, url: URL): Promise<T>;
  /** The admitted handshake never became a socket (the client left, or `ws` refused the upgrade): free what `admit` reserved. */
  abandon(admitted: T): void;
}
