import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { AuthFailureThrottle } from '../platform/auth/auth-failure-throttle';
import { setPrincipal } from '../platform/auth/principal';
import type { AccessClaims } from './access-tokens';
import type { MessagingConnector } from './connectors';
import { MessagingHttpService } from './messaging-http.service';

/** What each guard established, for its handler (a WeakMap: requests keep the shape Fastify gave them). */
const connectors = new WeakMap<FastifyRequest, MessagingConnector>();
const claims = new WeakMap<FastifyRequest, AccessClaims>();

/**
 * The messaging POSTs authenticate in guards, like every other route, so that the idempotency
 * interceptor (which runs after guards) only ever sees callers whose credential checked out, and
 * keys their records by that credential: a replay needs the same connector or access token.
 */
@Injectable()
export class ConnectorTokenGuard implements CanActivate {
  constructor(
    private readonly messaging: MessagingHttpService,
    private readonly failures: AuthFailureThrottle,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    const connector = await this.failures.attempt(request.ip, () =>
      this.messaging.connectorFor(request.headers['x-token'], request.headers['x-host']),
    );
    setPrincipal(request, { kind: 'connector', id: connector.id, accountId: connector.accountId });
    connectors.set(request, connector);
    return true;
  }
}

@Injectable()
export class AccessTokenGuard implements CanActivate {
  constructor(
    private readonly messaging: MessagingHttpService,
    private readonly failures: AuthFailureThrottle,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    const verified = await this.failures.attempt(request.ip, () =>
      this.messaging.claimsFor(request.headers.authorization),
    );
    setPrincipal(request, { kind: 'access-token', id: verified.tokenId, accountId: verified.accountId });
    claims.set(request, verified);
    return true;
  }
}

export function connectorOf(request: FastifyRequest): MessagingConnector {
  const connector = connectors.get(request);
  if (!connector) throw new Error('ConnectorTokenGuard did not run for this route');
  return connector;
}

export function claimsOf(request: FastifyRequest): AccessClaims {
  const verified = claims.get(request);
  if (!verified) throw new Error('AccessTokenGuard did not run for this route');
  return verified;
}
