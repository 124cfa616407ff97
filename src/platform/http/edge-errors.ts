import { randomUUID } from 'node:crypto';
import type { Socket } from 'node:net';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { envelopeExtras } from '../errors/envelope-flavours';
import { errorEnvelope } from '../errors/error-envelope';
import { toErrorResponse } from '../errors/to-error-response';
import { CORRELATION_HEADER } from './correlation';

/**
 * Errors Fastify's router raises before any hook or Nest runs (a malformed percent-encoding such
 * as `GET /%`, an over-long route parameter): answered in the envelope of contract §2 too.
 */
export function answerFrameworkError(error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  // the raw URL: the path did not parse, but its family (Alerts, SMS) still decides the envelope's extras
  const response = toErrorResponse(error, String(request.id), request.raw.url ?? '/');
  reply.header(CORRELATION_HEADER, request.id).headers(response.headers).code(response.status).send(response.body);
}

const CLIENT_ERRORS: Record<string, [number, string, string]> = {
  HPE_HEADER_OVERFLOW: [431, 'HEADERS_TOO_LARGE', 'request headers are too large'],
  ERR_HTTP_REQUEST_TIMEOUT: [408, 'REQUEST_TIMEOUT', 'the request was not received in time'],
  ERR_HTTP_HEADERS_TIMEOUT: [408, 'REQUEST_TIMEOUT', 'the request headers were not received in time'],
  HPE_INVALID_METHOD: [400, 'INVALID_METHOD', 'the request method is not valid HTTP'],
};
const MALFORMED: [number, string, string] = [400, 'MALFORMED_REQUEST', 'the request is not well-formed HTTP'];

/**
 * Node's HTTP parser refuses some requests before Fastify sees them (oversized headers, broken
 * framing, an unknown method, a header timeout): the socket gets a complete response in the
 * envelope, then is closed, as Node and Fastify do by default.
 */
export function answerClientError(error: Error & { code?: string; rawPacket?: unknown }, socket: Socket): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const [status, code, message] = CLIENT_ERRORS[error.code ?? ''] ?? MALFORMED;
  const id = randomUUID();
  const body = JSON.stringify({
    ...errorEnvelope(id, code, message),
    ...envelopeExtras(requestPath(error), message, []),
  });
  if (!socket.writable) return void socket.destroy();
  const head = `HTTP/1.1 ${status} ${REASONS[status]}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\n`;
  socket.end(`${head}${CORRELATION_HEADER}: ${id}\r\nConnection: close\r\n\r\n${body}`, () => socket.destroy());
}

/** The path of the refused request's first line, as far as Node read it ('/' when there is none). */
function requestPath(error: { rawPacket?: unknown }): string {
  const raw = error.rawPacket;
  const line = Buffer.isBuffer(raw) ? raw.toString('latin1', 0, Math.min(raw.length, 256)) : '';
  return /^[A-Z]+ (\/\S*)/.exec(line)?.[1] ?? '/';
}

const REASONS: Record<number, string> = {
  400: 'Bad Request',
  408: 'Request Timeout',
  431: 'Request Header Fields Too Large',
};
