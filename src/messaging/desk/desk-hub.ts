import { Injectable } from '@nestjs/common';
/** One open desk socket: a human agent, authenticated by a key with the `desk` permission. */
export interface DeskSocket {
  readonly keyId: string;
  readonly accountId: string;
  readonly agents: 'all' | string[];
  readonly agentName: string;
  /** the queue this socket was last shown, to send only changes */
  lastQueue: string;
  send(json: string): void;
  /** True once `end` ran or the socket closed: no frame of it is acted on after. */
  readonly ended: boolean;
  /** Ends the socket with a close code: it leaves the hub at once and acts on no further frame. */
  end(code: number, reason: string): void;
}

/**
 * The desk sockets of this process, by key (a human agent may have several tabs open), and which
 * of the sessions held by those keys this process knows of, to forward their events. Counts the
 * sockets per key for the cap, reserving a slot during the handshake so concurrent handshakes
 * cannot all pass the check.
 */
@Injectable()
export class DeskHub {
  private readonly byKey = new Map<string, Set<DeskSocket>>();
  private readonly held = new Map<string, string>();
  private readonly reserved = new Map<string, number>();

  count(keyId: string): number {
    return (this.byKey.get(keyId)?.size ?? 0) + (this.reserved.get(keyId) ?? 0);
  }

  /** Takes a socket slot for the key; false when it has `max` already. Release, or add, after. */
  reserve(keyId: string, max: number): boolean {
    if (this.count(keyId) >= max) return false;
    this.reserved.set(keyId, (this.reserved.get(keyId) ?? 0) + 1);
    return true;
  }

  release(keyId: string): void {
    const left = (this.reserved.get(keyId) ?? 0) - 1;
    if (left > 0) this.reserved.set(keyId, left);
    else this.reserved.delete(keyId);
  }

  /** Turns a reservation into an open socket. */
  add(socket: DeskSocket): void {
    this.release(socket.keyId);
    let set = this.byKey.get(socket.keyId);
    if (!set) this.byKey.set(socket.keyId, (set = new Set()));
    set.add(socket);
  }

  remove(socket: DeskSocket): void {
    const set = this.byKey.get(socket.keyId);
    if (!set) return;
    set.delete(socket);
    if (set.size > 0) return;
    this.byKey.delete(socket.keyId);
    for (const [sessionId, keyId] of this.held) if (keyId === socket.keyId) this.held.delete(sessionId);
  }

  /** The open sockets of a key, as a copy (ending one removes it). */
  socketsOf(keyId: string): DeskSocket[] {
    return [...(this.byKey.get(keyId) ?? [])];
  }

  hasKey(keyId: string): boolean {
    return this.byKey.has(keyId);
  }

  hold(sessionId: string, keyId: string): void {
    if (this.byKey.has(keyId)) this.held.set(sessionId, keyId);
  }

  holder(sessionId: string): string | undefined {
    return this.held.get(sessionId);
  }

  drop(sessionId: string): void {
    this.held.delete(sessionId);
  }

  sendToKey(keyId: string, frame: unknown): void {
    const json = JSON.stringify(frame);
    for (const socket of this.byKey.get(keyId) ?? []) socket.send(json);
  }

  get empty(): boolean {
    return this.byKey.size === 0;
  }

  *sockets(): Iterable<DeskSocket> {
    for (const set of this.byKey.values()) yield* set;
  }
}
