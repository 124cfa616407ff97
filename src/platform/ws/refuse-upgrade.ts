import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import type { DomainError } from '../errors/domain-error';
import { errorEnvelope } from '../errors/error-envelope';
import { CORRELATION_HEADER } from '../http/correlation';

/** Answers a handshake with an HTTP error (status, envelope, headers) and closes the connection. */
export function refuseUpgrade(socket: Duplex, error: DomainError, correlationId: string): void {
  if (socket.destroyed) return;
  const body = JSON.stringify(errorEnvelope(correlationId, error.code, error.message, error.data));
  const headers: Record<string, string | number> = {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(body),
    [CORRELATION_HEADER]: correlationId,
    connection: 'close',
    ...error.headers,
  };
  const head = [
    `HTTP/1.1 ${error.status} ${STATUS_CODES[error.status] ?? ''}`,
    ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`),
  ].join('\r\n');
  socket.end(`${head}\r\n\r\n${body}`);
}
