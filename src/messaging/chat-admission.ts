import { Inject, Injectable } from '@nestjs/common';
import type { IncomingMessage } from 'node:http';
import { RateLimiter } from '../platform/auth/rate-limiter';
import { Clock } from '../platform/clock/clock';
import { CONFIG, type Config } from '../platform/config/config';
import { IdGenerator } from '../platform/ids/ids';
import type { HandshakeGate } from '../platform/ws/handshake-gate';
import { AccessTokens, InvalidAccessToken, type AccessClaims } from './access-tokens';
import { AgentTurns } from './agent-turns';
import { httpError } from './http-errors';
import { SessionCommands } from './session-commands';
import { isExpired } from './session.decider';
import { SocketHub } from './socket-hub';

/** What an admitted chat handshake carries into its socket. */
export interface ChatAdmitted {
  sessionId: string;
  claims: AccessClaims;
  cursor: number;
}

const SESSION_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** An absent, non-numeric or negative cursor replays everything (interface.md). */
function parseCursor(raw: string | null): number {
  if (raw === null || !/^\d{1,15}$/.test(raw.trim())) return 0;
  return Number(raw.trim());
}

/**
 * Decides a `/ws?session_id=&access_token=&cursor=` handshake: its refusals are HTTP answers (400,
 * 401, 404, 429, as interface.md's table). A session found idle past its limit is expired here,
 * so the handshake answers 404 as the timer would have. An admitted handshake holds one of the
 * session's connection slots until its socket opens or it is abandoned.
 */
@Injectable()
export class ChatAdmission implements HandshakeGate<ChatAdmitted> {
  /** handshakes per session (MESSAGING_RATE_LIMIT_PER_SESSION) */
  private readonly limiter: RateLimiter;
  private readonly idleMs: number;
  private readonly maxConnectionsPerSession: number;

  constructor(
    private readonly hub: SocketHub,
    private readonly sessions: SessionCommands,
    private readonly tokens: AccessTokens,
    private readonly turns: AgentTurns,
    private readonly clock: Clock,
    private readonly ids: IdGenerator,
    @Inject(CONFIG) config: Config,
  ) {
    this.limiter = new RateLimiter(config.messaging.rateLimitPerSession);
    this.idleMs = config.messaging.sessionIdleS * 1000;
    this.maxConnectionsPerSession = config.messaging.maxConnectionsPerSession;
  }

  async admit(_request: IncomingMessage, url: URL): Promise<ChatAdmitted> {
    const sessionId = url.searchParams.get('session_id');
    const token = url.searchParams.get('access_token');
    if (!sessionId || !token) throw httpError('invalidParameters');
    let claims: AccessClaims;
    try {
      claims = await this.tokens.verify(token);
    } catch (error) {
      if (error instanceof InvalidAccessToken) throw httpError('authenticationFailed');
      throw error;
    }
    if (!SESSION_ID.test(sessionId)) throw httpError('sessionNotFound');
    const { state } = await this.sessions.current(sessionId);
    if (!state.exists || state.phase === 'ended') throw httpError('sessionNotFound');
    if (state.connectorId !== claims.connectorId) throw httpError('authenticationFailed');
    if (isExpired(state, this.clock.nowMs(), this.idleMs)) {
      const context = { actor: `messaging:${claims.tokenId}`, correlationId: this.ids.uuid() };
      // the conversation first: SESSION_END goes out once it reads ended (issue 47)
      if (state.phase === 'agent' && state.conversationId)
        await this.turns.endConversation(state.conversationId, 'timeout', context).catch(() => undefined);
      await this.sessions.execute(
        sessionId,
        { type: 'ExpireIfIdle', idleMs: this.idleMs, now: this.clock.nowIso() },
        context,
      );
      throw httpError('sessionNotFound');
    }
    this.limiter.take(sessionId);
    if (!this.hub.reserve(sessionId, this.maxConnectionsPerSession)) throw httpError('connectionLimit');
    return { sessionId, claims, cursor: parseCursor(url.searchParams.get('cursor')) };
  }

  abandon(admitted: ChatAdmitted): void {
    this.hub.release(admitted.sessionId);
  }
}
