import type { AppendStreamState, CurrentStreamState } from '@kurrent/kurrentdb-client';
import type { ExpectedRevision, StreamRevision } from '../event-store.port';

/**
 * The port's expected revision as the client's stream state. The names happen to coincide today;
 * the explicit switch keeps a rename on either side a type error instead of a silent mismatch.
 */
export function toStreamState(expected: ExpectedRevision): AppendStreamState {
  switch (expected) {
    case 'any':
      return 'any';
    case 'no_stream':
      return 'no_stream';
    case 'stream_exists':
      return 'stream_exists';
    default:
      if (typeof expected !== 'bigint' || expected < 0n)
        throw new RangeError(`not an expected revision: ${String(expected)}`);
      return expected;
  }
}

/**
 * The client's "current state" of a stream as the port's actual revision: null when the stream has
 * no events. The server reports deleted (-5) and tombstoned (-6) streams with negative numbers;
 * neither holds events a writer could expect, so they read as null too.
 */
export function fromCurrentState(current: CurrentStreamState | bigint | undefined): StreamRevision | null {
  if (current === undefined || current === 'no_stream') return null;
  return current < 0n ? null : current;
}
