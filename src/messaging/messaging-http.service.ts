import { Inject, Injectable } from '@nestjs/common';
import type { Logger } from 'pino';
import { RateLimiter } from '../platform/auth/rate-limiter';
import { Clock } from '../platform/clock/clock';
import { CONFIG, type Config, type MessagingConfig } from '../platform/config/config';
import type { CommandContext } from '../commands/command-context';
import { DomainError } from '../platform/errors/domain-error';
import { IdGenerator } from '../platform/ids/ids';
import { LOGGER } from '../platform/logging/logger';
import { AccessTokens, InvalidAccessToken, type AccessClaims } from './access-tokens';
import { ConnectorDirectory, type MessagingConnector } from './connectors';
import { hostMatches } from './host-match';
import { httpError } from './http-errors';
import { SessionCommands } from './session-commands';
import { bearerToken, parseSessionRequest } from './session-request';
import { MAX_MESSAGE_BYTES } from './limits';

const first = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value)?.trim() || undefined;

/** POST /api/v1/access-token and POST /api/v1/sessions: every error row of interface.md's two tables. */
@Injectable()
export class MessagingHttpService {
  /** session creations per access token (MESSAGING_RATE_LIMIT_PER_SESSION) */
  private readonly limiter: RateLimiter;
  /** what a new session's capabilities announce */
  private readonly limits: Pick<MessagingConfig, 'maxConnectionsPerSession' | 'sessionIdleS' | 'handoffTimeoutS'>;

  constructor(
    private readonly connectors: ConnectorDirectory,
    private readonly tokens: AccessTokens,
    private readonly sessions: SessionCommands,
    private readonly clock: Clock,
    private readonly ids: IdGenerator,
    @Inject(LOGGER) private readonly logger: Logger,
    @Inject(CONFIG) config: Config,
  ) {
    const { rateLimitPerSession, maxConnectionsPerSession, sessionIdleS, handoffTimeoutS } = config.messaging;
    this.limiter = new RateLimiter(rateLimitPerSession);
    this.limits = { maxConnectionsPerSession, sessionIdleS, handoffTimeoutS };
  }

  /** The connector behind X-Token, for a page on X-Host: the access-token route's authentication. */
  async connectorFor(
    rawToken: string | string[] | undefined,
    rawHost: string | string[] | undefined,
  ): Promise<MessagingConnector> {
    const token = first(rawToken);
    const host = first(rawHost);
    if (!token || !host) throw httpError('missingAuthHeaders');
    const connector = await this.connectors.byToken(token);
    if (!connector) throw httpError('connectorTokenUnknown');
    if (!connector.hostDomain) throw httpError('connectorMissingHost');
    if (!hostMatches(host, connector.hostDomain)) throw httpError('connectorHostMismatch');
    return connector;
  }

  async issueToken(connector: MessagingConnector) {
    try {
      const issued = await this.tokens.issue(connector, this.ids.uuid());
      return { access_token: issued.token, expires_in: issued.expiresIn, token_type: 'Bearer' };
    } catch (error) {
      this.logger.error({ err: error, connectorId: connector.id }, 'could not sign an access token');
      throw httpError('tokenCreationFailed');
    }
  }

  /** The claims of `Authorization: Bearer <access token>`: the sessions route's authentication. */
  async claimsFor(authorization: string | string[] | undefined): Promise<AccessClaims> {
    return this.claims(bearerToken(authorization));
  }

  async createSession(claims: AccessClaims, body: unknown, context: CommandContext) {
    const request = parseSessionRequest(body);
    this.limiter.take(claims.tokenId);
    const sessionId = this.ids.uuid();
    const { limits } = this;
    try {
      await this.sessions.execute(
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
            at: this.clock.nowIso(),
          },
        },
        { ...context, actor: `messaging:${claims.tokenId}` },
      );
    } catch (error) {
      if (error instanceof DomainError && error.status < 500) throw error;
      this.logger.error({ err: error }, 'could not create a messaging session');
      throw httpError('sessionCreationFailed');
    }
    return { session_id: sessionId };
  }

  private async claims(token: string): Promise<AccessClaims> {
    try {
      return await this.tokens.verify(token);
    } catch (error) {
      if (error instanceof InvalidAccessToken) throw httpError('invalidAccessToken');
      throw error;
    }
  }
}
