import { ErrorType, WrongExpectedVersionError } from '@kurrent/kurrentdb-client';
import { WrongExpectedRevisionError } from '../errors';
import type { ExpectedRevision } from '../event-store.port';
import { fromCurrentState } from './expected-revision';

/** The client's errors carry a `type`; reading it (not only instanceof) also knows errors from another copy of the client. */
function typeOf(error: unknown): string | undefined {
  const type = (error as { type?: unknown } | null)?.type;
  return typeof type === 'string' ? type : undefined;
}

export function isWrongExpectedVersion(error: unknown): error is WrongExpectedVersionError {
  return error instanceof WrongExpectedVersionError || typeOf(error) === ErrorType.WRONG_EXPECTED_VERSION;
}

export function isStreamNotFound(error: unknown): boolean {
  return typeOf(error) === ErrorType.STREAM_NOT_FOUND;
}

/** A conflict reported by the server, as the port's typed error; the actual revision is the server's. */
export function toWrongExpectedRevision(
  error: WrongExpectedVersionError,
  streamId: string,
  expected: ExpectedRevision,
): WrongExpectedRevisionError {
  return new WrongExpectedRevisionError(streamId, expected, fromCurrentState(error.actualState));
}

/**
 * Errors that retrying cannot cure: credentials, a request the server refuses, a feature the
 * server lacks. Everything else the client raises on a subscription (unavailable, deadline,
 * not leader, a reset connection reported as unknown) is a drop worth resubscribing after.
 */
const PERMANENT = new Set<string>([
  ErrorType.ACCESS_DENIED,
  ErrorType.INVALID_ARGUMENT,
  ErrorType.UNSUPPORTED,
  ErrorType.STREAM_DELETED,
  ErrorType.STREAM_TOMBSTONED,
]);

export function isPermanentClientError(error: unknown): boolean {
  const type = typeOf(error);
  return type !== undefined && PERMANENT.has(type);
}
