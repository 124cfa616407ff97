import type { IncomingMessage } from 'node:http';
import type { RateLimiter } from '../platform/auth/rate-limiter';
import type { Clock } from '../platform/clock/clock';
import type { IdGenerator } from '../platform/ids/ids';
import type { HandshakeGate } from '../platform/ws/handshake-gate';
import { InvalidAccessToken, type AccessClaims, type AccessTokens } from './access-tokens';
import type { AgentTurns } from './agent-turns';
import { httpError } from './http-errors';
import type { SessionCommands } from './session-commands';
import { isExpired } from './session.decider';
import type { SocketHub } from './socket-hub';

export interface ChatAdmissionDeps {
  hub: SocketHub;
  sessions: SessionCommands;
  tokens: AccessTokens;
  turns: AgentTurns;
  /** handshakes per session */
  limiter: RateLimiter;
  clock: Clock;
  ids: IdGenerator;
  idleMs: number;
  maxConnectionsPerSession: number;
}

/** What an admitted chat handshake carries into its socket. */
export interface ChatAdmitted {
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

/**
 * Decides a `/ws?session_id=&access_token=&cursor=` handshake: its refusals are HTTP answers (400,
 * 401, 404, 429, as interface.md's table). A session found idle past its limit is expired here,
 * so the handshake answers 404 as the timer would have. An admitted handshake holds one of the
 * session's connection slots until its socket opens or it is abandoned.
 */
export class ChatAdmission implements HandshakeGate<ChatAdmitted> {
  constructor(private readonly d: ChatAdmissionDeps) {}

  async admit(_request: IncomingMessage, url: URL): Promise<ChatAdmitted> {
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

  abandon(admitted: ChatAdmitted): void {
    this.d.hub.release(admitted.sessionId);
  }
}
