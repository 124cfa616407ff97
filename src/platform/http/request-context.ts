import type { FastifyRequest } from 'fastify';
import { principalOf } from '../auth/principal';

/**
 * The metadata of a command sent on behalf of an HTTP request: who sent it and the request's id.
 * Built here, at the edge, so the command path knows no HTTP type; the shape is a CommandContext's.
 */
export function requestContext(request: FastifyRequest): { actor: string; correlationId: string } {
  return { actor: principalOf(request)?.id ?? 'anonymous', correlationId: String(request.id) };
}
