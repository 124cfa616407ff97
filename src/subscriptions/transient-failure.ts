import { errorCodes, SOCKET_UNREACHABLE } from '../platform/database/unreachable';
import { DomainError } from '../platform/errors/domain-error';

/** SQLite result codes of a database another connection holds, or that ran out of something. */
const SQLITE_TRANSIENT = /^SQLITE_(BUSY|LOCKED|IOERR|FULL|NOMEM|CANTOPEN|PROTOCOL|INTERRUPT)/;
/**
 * PostgreSQL SQLSTATE classes and codes that pass by themselves: connection exceptions (08),
 * serialization failure and deadlock (40001, 40P01), insufficient resources (53), operator
 * intervention such as a server restarting (57), lock not available (55P03), system errors (58).
 */
const PG_TRANSIENT = /^(08|53|57|58)|^(40001|40P01|55P03)$/;
/** What pg and TypeORM say when a connection goes away (socket errors: SOCKET_UNREACHABLE). */
const MESSAGE_TRANSIENT = [
  /database is (locked|busy)/i,
  /connection (terminated|ended|refused|timeout)/i,
  /timeout exceeded when trying to connect/i,
  /Client has encountered a connection error/i,
  /the read-model apply thread (is closed|exited)/i,
  /is not initialized|Connection is not established/i,
];

/**
 * Whether a failure to apply or handle an event is the world's (a database busy or gone, a read
 * model still catching up), which retrying from the checkpoint outlasts, rather than the event's:
 * a handler that throws for this event will throw for it every time. Only the latter is
 * dead-lettered; the former keeps the runner's retry, however long it lasts.
 */
export function isTransientFailure(error: unknown): boolean {
  if (error && typeof error === 'object' && (error as { transient?: unknown }).transient === true) return true;
  // READ_MODEL_LAGGING, READ_MODEL_BUILDING: a wait that a later try sees end
  if (error instanceof DomainError) return error.status === 503;
  for (const code of errorCodes(error)) {
    if (SQLITE_TRANSIENT.test(code) || PG_TRANSIENT.test(code) || SOCKET_UNREACHABLE.has(code)) return true;
    if (code === 'EVENT_STORE_CLOSED' || code === 'WRONG_EXPECTED_REVISION') return true;
  }
  const message = error instanceof Error ? error.message : String(error);
  return MESSAGE_TRANSIENT.some((pattern) => pattern.test(message));
}
