/**
 * PostgreSQL SQLSTATEs of a server that cannot be reached or is going away: connection
 * exceptions (class 08), and admin shutdown, crash shutdown, cannot connect now (57P01-57P03).
 */
const PG_UNREACHABLE = /^(08|57P0[1-3])/;
/** Node's socket errors. */
export const SOCKET_UNREACHABLE = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
]);
/** What pg and its pool say when a connection goes away or cannot be made. */
const MESSAGE_UNREACHABLE = [
  /connection (terminated|ended|refused|timeout)/i,
  /timeout exceeded when trying to connect/i,
  /Client has encountered a connection error/i,
  /Connection terminated unexpectedly/i,
];

/** The codes on an error and on the driver error or cause under it (TypeORM wraps pg's and SQLite's). */
export function errorCodes(error: unknown): string[] {
  const codes: string[] = [];
  let current = error;
  for (let depth = 0; depth < 4 && current !== null && typeof current === 'object'; depth++) {
    const { code, driverError, cause } = current as { code?: unknown; driverError?: unknown; cause?: unknown };
    if (typeof code === 'string') codes.push(code);
    current = driverError ?? cause;
  }
  return codes;
}

/**
 * Whether an error says a database server could not be reached (down, restarting, the network
 * gone): a request that met it is answered 503 with Retry-After, since the same request will
 * succeed once the server is back, and nothing about it was wrong.
 */
export function isDatabaseUnreachable(error: unknown): boolean {
  // an outbound HTTP call's socket error (a tool's endpoint, a model's) is not the database's
  if (error instanceof TypeError && error.message === 'fetch failed') return false;
  if (errorCodes(error).some((code) => PG_UNREACHABLE.test(code) || SOCKET_UNREACHABLE.has(code))) return true;
  const message = error instanceof Error ? error.message : String(error);
  return MESSAGE_UNREACHABLE.some((pattern) => pattern.test(message));
}
