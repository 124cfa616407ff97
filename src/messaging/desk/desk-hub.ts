/** One open desk socket: a human agent, authenticated by a key with the `desk` permission. */
export interface DeskSocket {
  readonly keyId: string;
  readonly accountId: string;
  readonly agents: 'all' | string[];
  readonly agentName: string;
  /** the queue this socket was last shown, to send only changes */
  lastQueue: string;
  send(json: string): void;
}

/**
 * The desk sockets of this process, by key (a human agent may have several tabs open), and which
 * of the sessions held by those keys this process knows of, to forward their events.
 */
export class DeskHub {
  private readonly byKey = new Map<string, Set<DeskSocket>>();
  private readonly held = new Map<string, string>();

  add(socket: DeskSocket): void {
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
