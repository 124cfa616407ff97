import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

export const CORRELATION_HEADER = 'x-correlation-id';
const ACCEPTABLE = /^[A-Za-z0-9._:-]{1,128}$/;

/** The request's correlation id: the client's X-Correlation-Id when it is sane, else a fresh UUID. */
export function correlationIdFor(req: IncomingMessage): string {
  const given = req.headers[CORRELATION_HEADER];
  const value = Array.isArray(given) ? given[0] : given;
  return value && ACCEPTABLE.test(value) ? value : randomUUID();
}
