import type { ExpectedRevision, StreamRevision } from './event-store.port';

/** The stream was not where the writer expected it: reload, decide again, retry. */
export class WrongExpectedRevisionError extends Error {
  readonly code = 'WRONG_EXPECTED_REVISION';
  constructor(
    readonly streamId: string,
    readonly expected: ExpectedRevision,
    /** The stream's actual last revision, or null when it has no events. */
    readonly actual: StreamRevision | null,
  ) {
    super(`stream ${streamId}: expected ${String(expected)}, actual ${actual === null ? 'no stream' : String(actual)}`);
    this.name = 'WrongExpectedRevisionError';
  }
}

/** Some but not all of an append's event ids are already stored: not a retry of one earlier append. */
export class IdempotencyMismatchError extends Error {
  readonly code = 'EVENT_ID_REUSED';
  constructor(
    readonly streamId: string,
    readonly eventId: string,
  ) {
    super(`stream ${streamId}: event id ${eventId} is already stored as part of a different append`);
    this.name = 'IdempotencyMismatchError';
  }
}

export class EventStoreClosedError extends Error {
  readonly code = 'EVENT_STORE_CLOSED';
  constructor() {
    super('the event store is closed');
    this.name = 'EventStoreClosedError';
  }
}

export function expectedRevisionMatches(expected: ExpectedRevision, actual: StreamRevision | null): boolean {
  switch (expected) {
    case 'any':
      return true;
    case 'no_stream':
      return actual === null;
    case 'stream_exists':
      return actual !== null;
    default:
      return actual === expected;
  }
}
