import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import type { Logger } from 'pino';
import { WebSocket, WebSocketServer } from 'ws';
import type { EventStore } from '../event-store/event-store.port';
import type { RateLimiter } from '../platform/auth/rate-limiter';
import type { Clock } from '../platform/clock/clock';
import { atDeadline } from '../platform/clock/deadline';
import type { IdGenerator } from '../platform/ids/ids';
import { InvalidAccessToken, type AccessClaims, type AccessTokens } from './access-tokens';
import type { AgentTurns } from './agent-turns';
import type { ChatMessages, ChatSocket } from './chat-messages';
import { CLOSE_CREDENTIAL_EXPIRED } from './close-codes';
import { httpError } from './http-errors';
import { MAX_BUFFERED_BYTES, MAX_MESSAGE_BYTES, PING_INTERVAL_MS } from './limits';
import type { SessionCommands } from './session-commands';
import { isExpired } from './session.decider';
import { sessionStream } from './session.events';
import type { SocketHub } from './socket-hub';
import { sequenceOf, toWire, transient } from './wire';

export interface ChatGatewayDeps {
  hub: SocketHub;
  sessions: SessionCommands;
  tokens: AccessTokens;
  messages: ChatMessages;
  turns: AgentTurns;
  store: EventStore;
  /** handshakes per session */
  limiter: RateLimiter;
  clock: Clock;
  ids: IdGenerator;
  logger: Logger;
  idleMs: number;
  maxConnectionsPerSession: number;
}

interface Admitted {
  sessionId: string;
  claims: AccessClaims;
  cursor: number;
}

const SESSION_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** An absent, non-numeric or negative cursor replays everything (interface.md). */
export function parseCursor(raw: string | null): number {
  if (raw === null || !/^\d{1,15}$/.test(raw.trim())) return 0;
  return Number(raw.trim());
}

type LiveSocket = WebSocket & { alive?: boolean };

/**
 * `/ws?session_id=&access_token=&cursor=`: the handshake's refusals are HTTP answers (400, 401,
 * 404, 429, as interface.md's table); an accepted socket gets the history after `cursor` as one
 * EVENT_BATCH, then every event as it is stored. A socket lives no longer than its access token:
 * it closes with 4401 when the platform clock reaches the token's `exp`, by a timer and on the
 * first frame after it (which is not acted on); the client fetches a new token and resumes with
 * its cursor.
 */
export class ChatGateway {
  private readonly wss = new WebSocketServer({
    noServer: true,
    maxPayload: MAX_MESSAGE_BYTES,
    perMessageDeflate: false,
    clientTracking: true,
  });
  private readonly pinger: NodeJS.Timeout;

  constructor(private readonly d: ChatGatewayDeps) {
    this.pinger = setInterval(() => this.ping(), PING_INTERVAL_MS);
    this.pinger.unref();
  }

  readonly handle = async (request: IncomingMessage, socket: Duplex, head: Buffer, url: URL): Promise<void> => {
    const admitted = await this.admit(url);
    // the client may have gone while the handshake was checked
    if (socket.destroyed) return this.d.hub.release(admitted.sessionId);
    let opened = false;
    // ws answers a malformed upgrade itself (400) without calling back: the slot must still go back
    socket.once('close', () => !opened && this.d.hub.release(admitted.sessionId));
    this.wss.handleUpgrade(request, socket, head, (ws) => {
      opened = true;
      void this.open(ws as LiveSocket, admitted);
    });
  };

  async close(): Promise<void> {
    clearInterval(this.pinger);
    for (const ws of this.wss.clients) ws.close(1001, 'server shutting down');
    await new Promise<void>((resolve) => setTimeout(resolve, 50));
    for (const ws of this.wss.clients) ws.terminate();
    await new Promise<void>((resolve) => this.wss.close(() => resolve()));
  }

  private async admit(url: URL): Promise<Admitted> {
    const sessionId = url.searchParams.get('session_id');
    const token = url.searchParams.get('access_token');
    if (!sessionId || !token) throw httpError('invalidParameters');
    let claims: AccessClaims;
    try {
      claims = await this.d.tokens.verify(token);
    } catch (error) {
      if (error instanceof InvalidAccessToken) throw httpError('authenticationFailed');
      throw error;
    }
    if (!SESSION_ID.test(sessionId)) throw httpError('sessionNotFound');
    const { state } = await this.d.sessions.current(sessionId);
    if (!state.exists || state.phase === 'ended') throw httpError('sessionNotFound');
    if (state.connectorId !== claims.connectorId) throw httpError('authenticationFailed');
    if (isExpired(state, this.d.clock.nowMs(), this.d.idleMs)) {
      const context = { actor: `messaging:${claims.tokenId}`, correlationId: this.d.ids.uuid() };
      await this.d.sessions.execute(
        sessionId,
        { type: 'ExpireIfIdle', idleMs: this.d.idleMs, now: this.d.clock.nowIso() },
        context,
      );
      if (state.phase === 'agent' && state.conversationId)
        await this.d.turns.endConversation(state.conversationId, 'timeout', context).catch(() => undefined);
      throw httpError('sessionNotFound');
    }
    this.d.limiter.take(sessionId);
    if (!this.d.hub.reserve(sessionId, this.d.maxConnectionsPerSession)) throw httpError('connectionLimit');
    return { sessionId, claims, cursor: parseCursor(url.searchParams.get('cursor')) };
  }

  private async open(ws: LiveSocket, { sessionId, claims, cursor }: Admitted): Promise<void> {
    ws.alive = true;
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
    this.d.hub.add(socket);
    let ended = false;
    const expire = () => {
      if (ended) return;
      ended = true;
      this.d.hub.remove(socket);
      ws.close(CLOSE_CREDENTIAL_EXPIRED.code, CLOSE_CREDENTIAL_EXPIRED.reason);
    };
    const cancelExpiry = atDeadline(this.d.clock, claims.expiresAtMs, expire);
    ws.on('pong', () => (ws.alive = true));
    ws.on('error', (error) => this.d.logger.debug({ err: error, sessionId }, 'chat socket error'));
    ws.on('close', () => {
      ended = true;
      cancelExpiry();
      this.d.hub.remove(socket);
    });
    ws.on('message', (data) => {
      if (ended) return;
      // the timer may not have run yet: a frame sent on an expired token is refused, never acted on
      if (this.d.clock.nowMs() >= claims.expiresAtMs) return expire();
      const raw = Buffer.isBuffer(data)
        ? data.toString('utf8')
        : Array.isArray(data)
          ? Buffer.concat(data).toString('utf8')
          : Buffer.from(data).toString('utf8');
      this.d.messages
        .handle(socket, raw)
        .catch((error: unknown) => this.d.logger.error({ err: error, sessionId }, 'chat frame failed'));
    });
    try {
      const stream = sessionStream(sessionId);
      const history = (await this.d.store.readStream(stream, { fromRevision: BigInt(cursor) })).map(toWire);
      if (history.length === 0 && cursor > 0) {
        // a cursor past the end claims events that do not exist yet: count from the real end, or they would be skipped
        const [last] = await this.d.store.readStream(stream, { direction: 'backwards', maxCount: 1 });
        socket.lastSequence = Math.min(cursor, last ? sequenceOf(last.revision) : 0);
      }
      this.d.hub.finishReplay(
        socket,
        transient(this.d.ids.uuid(), 'EVENT_TYPE_EVENT_BATCH', this.d.clock.nowIso(), { events: history }),
        history,
      );
    } catch (error) {
      this.d.logger.error({ err: error, sessionId }, 'could not replay a session');
      ws.close(1011, 'could not replay the session');
    }
  }

  private ping(): void {
    for (const client of this.wss.clients) {
      const ws = client as LiveSocket;
      if (ws.alive === false) {
        ws.terminate();
        continue;
      }
      ws.alive = false;
      ws.ping();
    }
  }
}
