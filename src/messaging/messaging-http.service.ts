import type { Logger } from 'pino';
import type { RateLimiter } from '../platform/auth/rate-limiter';
import type { Clock } from '../platform/clock/clock';
import type { CommandContext } from '../commands/command-context';
import { DomainError } from '../platform/errors/domain-error';
import type { IdGenerator } from '../platform/ids/ids';
import { InvalidAccessToken, type AccessClaims, type AccessTokens } from './access-tokens';
import type { ConnectorDirectory, MessagingConnector } from './connectors';
import { hostMatches } from './host-match';
import { httpError } from './http-errors';
import type { SessionCommands } from './session-commands';
import { bearerToken, parseSessionRequest } from './session-request';
import { MAX_MESSAGE_BYTES } from './limits';

export interface MessagingHttpDeps {
  connectors: ConnectorDirectory;
  tokens: AccessTokens;
  sessions: SessionCommands;
  /** session creations per access token */
  limiter: RateLimiter;
  clock: Clock;
  ids: IdGenerator;
  logger: Logger;
  limits: { maxConnectionsPerSession: number; sessionIdleS: number; handoffTimeoutS: number };
}

const first = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value)?.trim() || undefined;

/** POST /api/v1/access-token and POST /api/v1/sessions: every error row of interface.md's two tables. */
export class MessagingHttpService {
  constructor(private readonly d: MessagingHttpDeps) {}

  /** The connector behind X-Token, for a page on X-Host: the access-token route's authentication. */
  async connectorFor(
    rawToken: string | string[] | undefined,
    rawHost: string | string[] | undefined,
  ): Promise<MessagingConnector> {
    const token = first(rawToken);
    const host = first(rawHost);
    if (!token || !host) throw httpError('missingAuthHeaders');
    const connector = await this.d.connectors.byToken(token);
    if (!connector) throw httpError('connectorTokenUnknown');
    if (!connector.hostDomain) throw httpError('connectorMissingHost');
    if (!hostMatches(host, connector.hostDomain)) throw httpError('connectorHostMismatch');
    return connector;
  }

  async issueToken(connector: MessagingConnector) {
    try {
      const issued = await this.d.tokens.issue(connector, this.d.ids.uuid());
      return { access_token: issued.token, expires_in: issued.expiresIn, token_type: 'Bearer' };
    } catch (error) {
      this.d.logger.error({ err: error, connectorId: connector.id }, 'could not sign an access token');
      throw httpError('tokenCreationFailed');
    }
  }

  /** The claims of `Authorization: Bearer <access token>`: the sessions route's authentication. */
  async claimsFor(authorization: string | string[] | undefined): Promise<AccessClaims> {
    return this.claims(bearerToken(authorization));
  }

  async createSession(claims: AccessClaims, body: unknown, context: CommandContext) {
    const request = parseSessionRequest(body);
    this.d.limiter.take(claims.tokenId);
    const sessionId = this.d.ids.uuid();
    const { limits } = this.d;
    try {
      await this.d.sessions.execute(
        sessionId,
        {
          type: 'StartSession',
          started: {
            sessionId,
            connectorId: claims.connectorId,
            accountId: claims.accountId,
            agentId: claims.agentId,
            environment: claims.environment,
            streamingEnabled: request.streamingEnabled,
            platform: request.platform,
            capabilities: {
              streaming: request.streamingEnabled,
              live_agent_handoff: true,
              typing_indicators: true,
              attachments: false,
              heartbeat: true,
              max_message_bytes: MAX_MESSAGE_BYTES,
              max_connections: limits.maxConnectionsPerSession,
              idle_timeout_s: limits.sessionIdleS,
              handoff_timeout_s: limits.handoffTimeoutS,
            },
            at: this.d.clock.nowIso(),
          },
        },
        { ...context, actor: `messaging:${claims.tokenId}` },
      );
    } catch (error) {
      if (error instanceof DomainError && error.status < 500) throw error;
      this.d.logger.error({ err: error }, 'could not create a messaging session');
      throw httpError('sessionCreationFailed');
    }
    return { session_id: sessionId };
  }

  private async claims(token: string): Promise<AccessClaims> {
    try {
      return await this.d.tokens.verify(token);
    } catch (error) {
      if (error instanceof InvalidAccessToken) throw httpError('invalidAccessToken');
      throw error;
    }
  }
}
