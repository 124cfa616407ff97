import { Inject, Injectable } from '@nestjs/common';
import type { Logger } from 'pino';
import { WebSocket } from 'ws';
import { EVENT_STORE, type EventStore } from '../event-store/event-store.port';
import { Clock } from '../platform/clock/clock';
import { atDeadline } from '../platform/clock/deadline';
import { IdGenerator } from '../platform/ids/ids';
import { LOGGER } from '../platform/logging/logger';
import type { ChatAdmitted } from './chat-admission';
import { ChatMessages, type ChatSocket } from './chat-messages';
import { CLOSE_CREDENTIAL_EXPIRED } from './close-codes';
import { MAX_BUFFERED_BYTES } from './limits';
import { sessionStream } from './session.events';
import { SocketHub } from './socket-hub';
import { sequenceOf, toWire, transient } from './wire';

/** One open chat socket: its hub entry, the token it was opened with, and whether it has ended. */
interface Connection {
  socket: ChatSocket;
  expiresAtMs: number;
  ended: boolean;
  /** answered the last ping */
  alive: boolean;
  expire(): void;
}

/**
 * What an admitted chat socket does: it gets the history after its cursor as one EVENT_BATCH,
 * then every event as it is stored (through the hub). A socket lives no longer than its access
 * token: it closes with 4401 when the platform clock reaches the token's `exp`, by a timer and on
 * the first frame after it (which is not acted on); the client fetches a new token and resumes
 * with its cursor.
 */
@Injectable()
export class ChatConnections {
  private readonly open = new WeakMap<WebSocket, Connection>();

  constructor(
    private readonly hub: SocketHub,
    private readonly messages: ChatMessages,
    @Inject(EVENT_STORE) private readonly store: EventStore,
    private readonly clock: Clock,
    private readonly ids: IdGenerator,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  async opened(ws: WebSocket, { sessionId, claims, cursor }: ChatAdmitted): Promise<void> {
    const socket: ChatSocket = {
      sessionId,
      tokenId: claims.tokenId,
      lastSequence: cursor,
      ready: false,
      pending: [],
      send: (json) => {
        if (ws.readyState !== WebSocket.OPEN) return;
        // a client that stopped reading is dropped rather than buffered without bound; it resumes from its cursor
        if (ws.bufferedAmount > MAX_BUFFERED_BYTES) return ws.terminate();
        ws.send(json);
      },
      sendAll: (frames) => {
        if (ws.readyState !== WebSocket.OPEN) return;
        if (ws.bufferedAmount > MAX_BUFFERED_BYTES) return ws.terminate();
        // ws corks each frame's header and body; corking around all of them makes one write of the lot
        const raw = (ws as unknown as { _socket?: { cork(): void; uncork(): void } })._socket;
        raw?.cork();
        for (const json of frames) ws.send(json);
        raw?.uncork();
      },
      close: (code, reason) => ws.close(code, reason),
    };
    this.hub.add(socket);
    const connection: Connection = {
      socket,
      expiresAtMs: claims.expiresAtMs,
      ended: false,
      alive: true,
      expire: () => {
        if (connection.ended) return;
        connection.ended = true;
        this.hub.remove(socket);
        ws.close(CLOSE_CREDENTIAL_EXPIRED.code, CLOSE_CREDENTIAL_EXPIRED.reason);
      },
    };
    const cancelExpiry = atDeadline(this.clock, claims.expiresAtMs, connection.expire);
    this.open.set(ws, connection);
    ws.on('pong', () => (connection.alive = true));
    ws.once('close', () => {
      connection.ended = true;
      cancelExpiry();
      this.hub.remove(socket);
    });
    try {
      const stream = sessionStream(sessionId);
      const history = (await this.store.readStream(stream, { fromRevision: BigInt(cursor) })).map(toWire);
      if (history.length === 0 && cursor > 0) {
        // a cursor past the end claims events that do not exist yet: count from the real end, or they would be skipped
        const [last] = await this.store.readStream(stream, { direction: 'backwards', maxCount: 1 });
        socket.lastSequence = Math.min(cursor, last ? sequenceOf(last.revision) : 0);
      }
      this.hub.finishReplay(
        socket,
        transient(this.ids.uuid(), 'EVENT_TYPE_EVENT_BATCH', this.clock.nowIso(), { events: history }),
        history,
      );
    } catch (error) {
      this.logger.error({ err: error, sessionId }, 'could not replay a session');
      ws.close(1011, 'could not replay the session');
    }
  }

  /** One client frame, as text. */
  frame(ws: WebSocket, raw: string): void {
    const connection = this.open.get(ws);
    if (!connection || connection.ended) return;
    // the timer may not have run yet: a frame sent on an expired token is refused, never acted on
    if (this.clock.nowMs() >= connection.expiresAtMs) return connection.expire();
    const { socket } = connection;
    this.messages
      .handle(socket, raw)
      .catch((error: unknown) => this.logger.error({ err: error, sessionId: socket.sessionId }, 'chat frame failed'));
  }

  /** Finds connections that died without a close: one that did not answer the previous ping is dropped. */
  ping(clients: Iterable<WebSocket>): void {
    for (const ws of clients) {
      const connection = this.open.get(ws);
      if (!connection) continue;
      if (!connection.alive) {
        ws.terminate();
        continue;
      }
      connection.alive = false;
      ws.ping();
    }
  }
}
