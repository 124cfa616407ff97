import type { FastifyRequest } from 'fastify';
import { principalOf } from '../platform/auth/principal';
import type { CommandContext } from './command-context';

/** The metadata of a command sent on behalf of an HTTP request. */
export function requestContext(request: FastifyRequest): CommandContext {
  return { actor: principalOf(request)?.id ?? 'anonymous', correlationId: String(request.id) };
}
