import { Injectable } from '@nestjs/common';
import type { KeyRecord } from '../../platform/auth/key-principal';

/** One open `/studio/ws` socket. */
export interface FeedSocket {
  readonly key: KeyRecord;
  /** the project it follows, or null for every project the key reaches */
  readonly agentId: string | null;
  send(json: string): void;
  /** Closes the socket with a code; it leaves the hub at once. */
  end(code: number, reason: string): void;
}

/** The feed sockets of this process, by key, with a slot reserved per handshake under way. */
@Injectable()
export class StudioFeedHub {
  private readonly byKey = new Map<string, Set<FeedSocket>>();
  private readonly reserved = new Map<string, number>();

  reserve(keyId: string, max: number): boolean {
    const count = (this.byKey.get(keyId)?.size ?? 0) + (this.reserved.get(keyId) ?? 0);
    if (count >= max) return false;
    this.reserved.set(keyId, (this.reserved.get(keyId) ?? 0) + 1);
    return true;
  }

  release(keyId: string): void {
    const left = (this.reserved.get(keyId) ?? 0) - 1;
    if (left > 0) this.reserved.set(keyId, left);
    else this.reserved.delete(keyId);
  }

  add(socket: FeedSocket): void {
    this.release(socket.key.id);
    let set = this.byKey.get(socket.key.id);
    if (!set) this.byKey.set(socket.key.id, (set = new Set()));
    set.add(socket);
  }

  remove(socket: FeedSocket): void {
    const set = this.byKey.get(socket.key.id);
    if (!set?.delete(socket) || set.size > 0) return;
    this.byKey.delete(socket.key.id);
  }

  socketsOf(keyId: string): FeedSocket[] {
    return [...(this.byKey.get(keyId) ?? [])];
  }

  get empty(): boolean {
    return this.byKey.size === 0;
  }

  *sockets(): Iterable<FeedSocket> {
    for (const set of this.byKey.values()) yield* set;
  }
}
