import type { FastifyRequest } from 'fastify';

/**
 * Who is calling, as established by a guard once its credential checked out: the operator, an API
 * key, a messaging connector (its X-Token) or a messaging access token (its bearer JWT). Set only
 * on success, so what reads it (idempotency) knows authentication has passed.
 */
export interface Principal {
  kind: 'operator' | 'key' | 'connector' | 'access-token';
  /** `operator`, a key id, a connector id, or an access token's id (jti): never a secret */
  id: string;
  accountId?: string;
}

export function principalOf(request: FastifyRequest): Principal | undefined {
  return (request as FastifyRequest & { principal?: Principal }).principal;
}

export function setPrincipal(request: FastifyRequest, principal: Principal): void {
  (request as FastifyRequest & { principal?: Principal }).principal = principal;
}
