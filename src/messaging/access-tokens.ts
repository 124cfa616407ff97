import { Inject, Injectable } from '@nestjs/common';
import { errors, jwtVerify, SignJWT } from 'jose';
import { ServerSecret } from '../platform/auth/server-secret';
import { Clock } from '../platform/clock/clock';
import { CONFIG, type Config } from '../platform/config/config';
import type { MessagingConnector } from './connectors';

const ISSUER = 'parley';
const AUDIENCE = 'parley-messaging';

export interface AccessClaims {
  connectorId: string;
  accountId: string;
  agentId: string;
  environment: string;
  tokenId: string;
  /** `exp` in milliseconds: an open socket closes when the platform clock reaches it */
  expiresAtMs: number;
}

export class InvalidAccessToken extends Error {}

/**
 * Short-lived JWTs (HS256) for the browser: the connector's scope, no secret. The signing key is
 * derived from the server secret, so every process of one installation verifies every other's
 * tokens, and times (iat, exp) follow the platform clock like every other rule.
 */
@Injectable()
export class AccessTokens {
  private readonly key: Uint8Array;
  /** MESSAGING_TOKEN_TTL_S */
  readonly ttlS: number;

  constructor(
    secret: ServerSecret,
    private readonly clock: Clock,
    @Inject(CONFIG) config: Config,
  ) {
    this.ttlS = config.messaging.tokenTtlS;
    this.key = new Uint8Array(Buffer.from(secret.digest('parley:messaging-access-token:v1'), 'hex'));
  }

  async issue(connector: MessagingConnector, tokenId: string): Promise<{ token: string; expiresIn: number }> {
    const now = Math.floor(this.clock.nowMs() / 1000);
    const token = await new SignJWT({ acc: connector.accountId, agt: connector.agentId, env: connector.environment })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setIssuer(ISSUER)
      .setAudience(AUDIENCE)
      .setSubject(connector.id)
      .setJti(tokenId)
      .setIssuedAt(now)
      .setExpirationTime(now + this.ttlS)
      .sign(this.key);
    return { token, expiresIn: this.ttlS };
  }

  /** Throws InvalidAccessToken for a malformed, expired, tampered or foreign token. */
  async verify(token: string): Promise<AccessClaims> {
    try {
      const { payload } = await jwtVerify(token, this.key, {
        issuer: ISSUER,
        audience: AUDIENCE,
        algorithms: ['HS256'],
        currentDate: this.clock.now(),
      });
      const { sub, acc, agt, env, jti, exp } = payload;
      if (
        typeof sub !== 'string' ||
        typeof acc !== 'string' ||
        typeof agt !== 'string' ||
        typeof env !== 'string' ||
        typeof jti !== 'string' ||
        typeof exp !== 'number'
      ) {
        throw new InvalidAccessToken('incomplete claims');
      }
      return {
        connectorId: sub,
        accountId: acc,
        agentId: agt,
        environment: env,
        tokenId: jti,
        expiresAtMs: exp * 1000,
      };
    } catch (error) {
      if (error instanceof InvalidAccessToken || error instanceof errors.JOSEError || error instanceof TypeError)
        throw new InvalidAccessToken(String(error));
      throw error;
    }
  }
}
