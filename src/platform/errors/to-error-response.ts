import { HttpException } from '@nestjs/common';
import { DomainError } from './domain-error';
import { codeForStatus, errorEnvelope, type ErrorEnvelope } from './error-envelope';
import { envelopeExtras } from './envelope-flavours';
import { isDatabaseUnreachable } from '../database/unreachable';

export interface ErrorResponse {
  status: number;
  body: ErrorEnvelope;
  headers: Record<string, string>;
  /** True when the cause is ours, not the client's: log it with its stack. */
  internal: boolean;
}

/** Fastify's own errors (body parsing, limits) carry a statusCode and an FST_ code. */
interface FastifyLikeError {
  statusCode?: number;
  code?: string;
  message?: string;
}

const FASTIFY_MESSAGES: Record<string, [string, string]> = {
  FST_ERR_CTP_BODY_TOO_LARGE: ['PAYLOAD_TOO_LARGE', 'request body is larger than 1 MiB'],
  FST_ERR_CTP_INVALID_MEDIA_TYPE: ['UNSUPPORTED_MEDIA_TYPE', 'Content-Type must be application/json'],
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: ['INVALID_CONTENT_LENGTH', 'Content-Length does not match the body'],
  FST_ERR_BAD_URL: ['INVALID_URL', 'the URL is not valid (malformed percent-encoding)'],
  FST_ERR_MAX_PARAM_LENGTH: ['URI_TOO_LONG', 'a path segment of the URL is too long'],
  FST_ERR_CTP_EMPTY_JSON_BODY: ['INVALID_JSON', 'body is empty but content-type is application/json'],
  FST_ERR_CTP_INVALID_JSON_BODY: ['INVALID_JSON', 'body is not valid JSON'],
};

/** One mapping from anything thrown to the status, envelope and headers of contract §2. */
export function toErrorResponse(error: unknown, correlationId: string, path: string): ErrorResponse {
  const build = (
    status: number,
    code: string,
    message: string,
    data: unknown = null,
    fieldErrors: Array<{ field: string; message: string }> = [],
    headers: Record<string, string> = {},
    internal = false,
  ): ErrorResponse => ({
    status,
    body: { ...errorEnvelope(correlationId, code, message, data), ...envelopeExtras(path, message, fieldErrors) },
    headers,
    internal,
  });

  if (error instanceof DomainError) {
    return build(error.status, error.code, error.message, error.data, error.fieldErrors, error.headers);
  }
  // The event store's revision conflict, known by its code: the platform does not import the store.
  if ((error as { code?: unknown } | null)?.code === 'WRONG_EXPECTED_REVISION') {
    return build(409, 'CONCURRENCY_CONFLICT', 'the resource was changed by another request; retry');
  }
  if (error instanceof HttpException) {
    // Nest wraps Fastify's own errors (body parsing, limits) and keeps them as the cause.
    const cause = fastifyKnown(error.cause);
    if (cause) return build(error.getStatus(), cause[0], cause[1]);
    const status = error.getStatus();
    const response = error.getResponse();
    const message = typeof response === 'string' ? response : (messageOf(response) ?? error.message);
    return build(status, codeForStatus(status), message, null, [], {}, status >= 500);
  }
  if (error instanceof SyntaxError && /JSON/.test(error.message)) {
    return build(400, 'INVALID_JSON', 'body is not valid JSON');
  }
  const fastify = error as FastifyLikeError;
  if (typeof fastify?.statusCode === 'number' && fastify.statusCode >= 400 && fastify.statusCode < 500) {
    const [code, message] = fastifyKnown(error) ?? [
      codeForStatus(fastify.statusCode),
      fastify.message ?? 'bad request',
    ];
    return build(fastify.statusCode, code, message);
  }
  // the log, the read models or the platform records are out of reach (a restart, a failover): retry
  if (isDatabaseUnreachable(error)) {
    return build(
      503,
      'DATABASE_UNAVAILABLE',
      'the database cannot be reached; the request was not completed, retry shortly',
      null,
      [],
      { 'retry-after': '1' },
      true,
    );
  }
  return build(500, 'INTERNAL_ERROR', 'internal error; the request was not completed', null, [], {}, true);
}

function fastifyKnown(error: unknown): [string, string] | undefined {
  const code = (error as FastifyLikeError | undefined)?.code;
  return code ? FASTIFY_MESSAGES[code] : undefined;
}

function messageOf(response: object): string | undefined {
  const message = (response as { message?: unknown }).message;
  if (Array.isArray(message)) return message.join('; ');
  return typeof message === 'string' ? message : undefined;
}
