import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { envelopeExtras } from '../errors/envelope-flavours';
import { errorEnvelope } from '../errors/error-envelope';
import { toErrorResponse } from '../errors/to-error-response';
import { CORRELATION_HEADER, correlationIdFor } from './correlation';

/**
 * Errors Fastify's router raises before any hook or Nest runs (a malformed percent-encoding such
 * as `GET /%`, an over-long route parameter): answered in the envelope of contract §2 too.
 */
export function answerFrameworkError(error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  // the raw URL: the path did not parse, but its family (Alerts, SMS) still decides the envelope's extras
  const response = toErrorResponse(error, String(request.id), request.raw.url ?? '/');
  reply.header(CORRELATION_HEADER, request.id).headers(response.headers).code(response.status).send(response.body);
}

type Refusal = [status: number, code: string, message: string];

const CLIENT_ERRORS: Record<string, Refusal> = {
  HPE_HEADER_OVERFLOW: [431, 'HEADERS_TOO_LARGE', 'request headers are too large'],
  ERR_HTTP_REQUEST_TIMEOUT: [408, 'REQUEST_TIMEOUT', 'the request was not received in time'],
  ERR_HTTP_HEADERS_TIMEOUT: [408, 'REQUEST_TIMEOUT', 'the request headers were not received in time'],
  HPE_INVALID_METHOD: [400, 'INVALID_METHOD', 'the request method is not valid HTTP'],
};
const MALFORMED: Refusal = [400, 'MALFORMED_REQUEST', 'the request is not well-formed HTTP'];
const CONNECT: Refusal = [405, 'METHOD_NOT_ALLOWED', 'CONNECT is not supported: this is not a proxy'];
const EXPECTATION: Refusal = [
  417,
  'EXPECTATION_FAILED',
  'the only expectation this server meets is Expect: 100-continue',
];
const TOO_MANY_CONNECTIONS: Refusal = [
  429,
  'TOO_MANY_CONNECTIONS',
  'too many open connections from this address (HTTP_MAX_CONNECTIONS_PER_ADDRESS, or its share of HTTP_MAX_CONNECTIONS); close some and retry',
];

/**
 * Node's HTTP parser refuses some requests before Fastify sees them (oversized headers, broken
 * framing, an unknown method, a header or request timeout): the socket gets a complete response
 * in the envelope where one can still be written, then is closed, as Node and Fastify do by default.
 */
export function answerClientError(error: Error & { code?: string; rawPacket?: unknown }, socket: Duplex): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  // a response already begun (its headers sent) cannot be followed by another: just close
  const inFlight = (socket as Duplex & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
  if (inFlight?.headersSent) return void socket.destroy();
  endWith(socket, CLIENT_ERRORS[error.code ?? ''] ?? MALFORMED, randomUUID(), requestPath(error));
}

/** CONNECT asks the server to be a tunnel (Node would drop the socket without a word): 405 in the envelope. */
export function answerConnect(request: IncomingMessage, socket: Duplex): void {
  socket.on('error', () => socket.destroy());
  endWith(socket, CONNECT, correlationIdFor(request), request.url?.startsWith('/') ? request.url : '/');
}

/** An Expect header other than 100-continue: 417 in the envelope (Node's own answer has no body). */
export function answerExpectation(request: IncomingMessage, response: ServerResponse): void {
  const id = correlationIdFor(request);
  const [status, code, message] = EXPECTATION;
  const body = JSON.stringify({
    ...errorEnvelope(id, code, message),
    ...envelopeExtras(request.url ?? '/', message, []),
  });
  response.shouldKeepAlive = false;
  response
    .writeHead(status, {
      'content-type': 'application/json; charset=utf-8',
      'content-length': Buffer.byteLength(body),
      [CORRELATION_HEADER]: id,
      connection: 'close',
    })
    .end(body);
}

/** A connection past its address's cap: told why in the envelope, then closed before anything of it is read. */
export function refuseConnection(socket: Duplex): void {
  socket.on('error', () => socket.destroy());
  socket.write(rawResponse(TOO_MANY_CONNECTIONS, randomUUID(), '/'));
  socket.destroy();
}

function endWith(socket: Duplex, refusal: Refusal, id: string, path: string): void {
  if (!socket.writable) return void socket.destroy();
  socket.end(rawResponse(refusal, id, path), () => socket.destroy());
}

function rawResponse([status, code, message]: Refusal, id: string, path: string): string {
  const body = JSON.stringify({ ...errorEnvelope(id, code, message), ...envelopeExtras(path, message, []) });
  const head = `HTTP/1.1 ${status} ${REASONS[status]}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\n`;
  return `${head}${CORRELATION_HEADER}: ${id}\r\nConnection: close\r\n\r\n${body}`;
}

/** The path of the refused request's first line, as far as Node read it ('/' when there is none). */
function requestPath(error: { rawPacket?: unknown }): string {
  const raw = error.rawPacket;
  const line = Buffer.isBuffer(raw) ? raw.toString('latin1', 0, Math.min(raw.length, 256)) : '';
  return /^[A-Z]+ (\/\S*)/.exec(line)?.[1] ?? '/';
}

const REASONS: Record<number, string> = {
  400: 'Bad Request',
  405: 'Method Not Allowed',
  408: 'Request Timeout',
  417: 'Expectation Failed',
  429: 'Too Many Requests',
  431: 'Request Header Fields Too Large',
};
