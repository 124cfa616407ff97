import type { FastifyRequest } from 'fastify';

/** Who is calling, as established by a guard. Later capabilities add key principals. */
export interface Principal {
  kind: 'operator' | 'key';
  /** `operator`, or a key id */
  id: string;
  accountId?: string;
}

export function principalOf(request: FastifyRequest): Principal | undefined {
  return (request as FastifyRequest & { principal?: Principal }).principal;
}

export function setPrincipal(request: FastifyRequest, principal: Principal): void {
  (request as FastifyRequest & { principal?: Principal }).principal = principal;
}
