import { HeldChunks } from './held-chunks';
import { Injectable } from '@nestjs/common';
import type { WireEvent } from './wire';

/** One open chat socket, as the hub sees it. */
export interface HubSocket {
  readonly sessionId: string;
  /** Highest stored sequence this socket has been sent: a later delivery of it or below is skipped. */
  lastSequence: number;
  /** False while the history is being replayed: live events wait in `pending`. */
  ready: boolean;
  pending: WireEvent[];
  send(json: string): void;
  /** Several frames in one write (one syscall), in order. */
  sendAll(json: string[]): void;
  close(code: number, reason: string): void;
}

/**
 * The chat sockets open on this process, by session. Stored events reach a socket exactly once
 * and in sequence order, whether they come from the replay or from the live feed: each socket
 * remembers the last sequence it was sent. Counts open sockets per session for the connection
 * limit, reserving a slot during the handshake so concurrent handshakes cannot all pass the check.
 */
@Injectable()
export class SocketHub {
  private readonly sockets = new Map<string, Set<HubSocket>>();
  private readonly reserved = new Map<string, number>();
  /** a streamed answer's chunks, until the stored user message before them goes out */
  private readonly chunks = new HeldChunks();

  count(sessionId: string): number {
    return (this.sockets.get(sessionId)?.size ?? 0) + (this.reserved.get(sessionId) ?? 0);
  }

  /** Takes a connection slot; returns false when the session has `max` already. Release or add after. */
  reserve(sessionId: string, max: number): boolean {
    if (this.count(sessionId) >= max) return false;
    this.reserved.set(sessionId, (this.reserved.get(sessionId) ?? 0) + 1);
    return true;
  }

  release(sessionId: string): void {
    const left = (this.reserved.get(sessionId) ?? 0) - 1;
    if (left > 0) this.reserved.set(sessionId, left);
    else this.reserved.delete(sessionId);
  }

  /** Turns a reservation into an open socket (not yet ready: its replay comes next). */
  add(socket: HubSocket): void {
    this.release(socket.sessionId);
    let set = this.sockets.get(socket.sessionId);
    if (!set) this.sockets.set(socket.sessionId, (set = new Set()));
    set.add(socket);
  }

  remove(socket: HubSocket): void {
    const set = this.sockets.get(socket.sessionId);
    if (!set) return;
    set.delete(socket);
    if (set.size === 0) this.sockets.delete(socket.sessionId);
  }

  has(sessionId: string): boolean {
    return this.sockets.has(sessionId);
  }

  get totalSockets(): number {
    let n = 0;
    for (const set of this.sockets.values()) n += set.size;
    return n;
  }

  /** Sends the history batch, then whatever arrived live meanwhile and is newer. */
  finishReplay(socket: HubSocket, batch: WireEvent, replayed: WireEvent[]): void {
    socket.send(JSON.stringify(batch));
    if (replayed.length > 0) socket.lastSequence = replayed[replayed.length - 1].sequence!;
    socket.ready = true;
    const pending = socket.pending;
    socket.pending = [];
    if (replayed.some((event) => event.type === 'EVENT_TYPE_SESSION_END')) {
      socket.close(1000, 'session ended');
      return;
    }
    for (const event of pending) this.sendOne(socket, event, JSON.stringify(event));
  }

  /** Stored events of one session, in sequence order. A SESSION_END closes the session's sockets after it is sent. */
  deliverStored(sessionId: string, stored: WireEvent[]): void {
    const events = this.chunks.release(sessionId, stored);
    const set = this.sockets.get(sessionId);
    if (!set || events.length === 0) return;
    const frames = events.map((event) => JSON.stringify(event));
    // a held chunk goes only where its answer (the next stored event) goes
    const gates: Array<number | null> = new Array(events.length);
    for (let i = events.length - 1, next: number | null = null; i >= 0; i--) {
      if (events[i].sequence !== null) next = events[i].sequence;
      gates[i] = next;
    }
    for (const socket of [...set]) {
      if (!socket.ready) {
        // replaying: the answer reaches it whole, from the history or from here
        socket.pending.push(...stored);
        continue;
      }
      const out: string[] = [];
      let ended = false;
      events.forEach((event, i) => {
        const gate = gates[i];
        if (gate !== null && gate <= socket.lastSequence) return;
        if (event.sequence !== null) socket.lastSequence = event.sequence;
        out.push(frames[i]);
        ended ||= event.type === 'EVENT_TYPE_SESSION_END';
      });
      if (out.length === 1) socket.send(out[0]);
      else if (out.length > 1) socket.sendAll(out);
      if (ended) socket.close(1000, 'session ended');
    }
  }

  /** A transient event to every socket of the session but `except`. */
  deliverTransient(sessionId: string, event: WireEvent, except?: HubSocket): void {
    const set = this.sockets.get(sessionId);
    if (!set) return;
    if (except === undefined && this.chunks.hold(sessionId, event)) return;
    const frame = JSON.stringify(event);
    for (const socket of set) if (socket !== except) this.sendOne(socket, event, frame);
  }

  /**
   * A piece of an answer the model is still writing, to every socket of the session at once: not
   * held for the stored answer (the user's message and the answer are stored when it is done), so
   * the first words show as soon as the model sends them. The stored answer then replaces them.
   */
  deliverLive(sessionId: string, event: WireEvent): void {
    const set = this.sockets.get(sessionId);
    if (!set) return;
    const frame = JSON.stringify(event);
    for (const socket of set) this.sendOne(socket, event, frame);
  }

  /** One socket only (answers to its own frames), in order with what it is sent from the feed. */
  sendTo(socket: HubSocket, event: WireEvent): void {
    this.sendOne(socket, event, JSON.stringify(event));
  }

  *all(): Iterable<HubSocket> {
    for (const set of this.sockets.values()) yield* set;
  }

  private sendOne(socket: HubSocket, event: WireEvent, frame: string): void {
    if (!socket.ready) {
      socket.pending.push(event);
      return;
    }
    if (event.sequence !== null) {
      if (event.sequence <= socket.lastSequence) return;
      socket.lastSequence = event.sequence;
    }
    socket.send(frame);
    if (event.type === 'EVENT_TYPE_SESSION_END') socket.close(1000, 'session ended');
  }
}
