import {
  AccessDeniedError,
  StreamNotFoundError,
  UnavailableError,
  UnknownError,
  WrongExpectedVersionError,
} from '@kurrent/kurrentdb-client';
import { WrongExpectedRevisionError } from '../errors';
import {
  isPermanentClientError,
  isStreamNotFound,
  isWrongExpectedVersion,
  toWrongExpectedRevision,
} from './error-translation';

function wrongVersion(expected: 'any' | 'no_stream' | 'stream_exists' | bigint, current: 'no_stream' | bigint) {
  return new WrongExpectedVersionError(undefined, { streamName: 'order-1', expected, current });
}

describe('translating the client errors', () => {
  it('knows a conflict by class, and by its type tag from another copy of the client', () => {
    expect(isWrongExpectedVersion(wrongVersion(3n, 5n))).toBe(true);
    expect(isWrongExpectedVersion({ type: 'wrong-expected-version' })).toBe(true);
    expect(isWrongExpectedVersion(new Error('wrong expected version'))).toBe(false);
    expect(isWrongExpectedVersion(new StreamNotFoundError(undefined, 'x'))).toBe(false);
    expect(isWrongExpectedVersion(undefined)).toBe(false);
  });

  it('turns a conflict into the port error with the port expectation and the server actual revision', () => {
    const error = toWrongExpectedRevision(wrongVersion(1n, 2n), 'order-1', 1n);
    expect(error).toBeInstanceOf(WrongExpectedRevisionError);
    expect(error).toMatchObject({ streamId: 'order-1', expected: 1n, actual: 2n, code: 'WRONG_EXPECTED_REVISION' });
  });

  it('reports a missing stream as actual null', () => {
    const error = toWrongExpectedRevision(wrongVersion('stream_exists', 'no_stream'), 'order-1', 'stream_exists');
    expect(error).toMatchObject({ expected: 'stream_exists', actual: null });
    expect(toWrongExpectedRevision(wrongVersion(0n, 'no_stream'), 'order-1', 0n).actual).toBeNull();
  });

  it('names the port stream, not the server one (a namespace may prefix it)', () => {
    expect(toWrongExpectedRevision(wrongVersion('no_stream', 0n), 'order-1', 'no_stream').streamId).toBe('order-1');
  });

  it('knows a missing stream on reads', () => {
    expect(isStreamNotFound(new StreamNotFoundError(undefined, 'missing'))).toBe(true);
    expect(isStreamNotFound(new UnknownError())).toBe(false);
  });

  it('tells permanent refusals from drops worth resubscribing after', () => {
    expect(isPermanentClientError(new AccessDeniedError())).toBe(true);
    expect(isPermanentClientError(new UnavailableError())).toBe(false);
    expect(isPermanentClientError(new UnknownError())).toBe(false);
    expect(isPermanentClientError(new Error('socket hang up'))).toBe(false);
  });
});
