import type { AppendOutcome, AppendRequest } from './batch-writer';
import { packBatch, packOutcomes, unpackBatch, unpackOutcomes } from './writer-wire';

const event = (id: string, data = '{}') => ({ id, type: 'Thing', data, metadata: '{"schemaVersion":1}' });

describe('the writer thread wire', () => {
  it('carries a batch across unchanged: every expected revision, several events, none', () => {
    const batch: AppendRequest[] = [
      { streamId: 'a', expected: 'any', events: [event('1')] },
      { streamId: 'b', expected: 'no_stream', events: [event('2', '{"x":"any"}'), event('3')] },
      { streamId: 'c', expected: 'stream_exists', events: [event('4')] },
      { streamId: 'd', expected: 7n, events: [event('5')] },
      // past 2^53: a number would round it
      { streamId: 'e', expected: 9007199254740993n, events: [event('6')] },
      { streamId: 'f', expected: 'any', events: [] },
    ];
    const crossed = unpackBatch(structuredClone(packBatch(batch)));
    expect(crossed).toEqual(batch);
    expect(crossed[4].expected).toBe(9007199254740993n);
  });

  it('carries outcomes across: stored, repeated, and each refusal in place', () => {
    const outcomes: AppendOutcome[] = [
      { ok: true, revision: 0, globalPosition: 41, repeat: false },
      { ok: false, refusal: 'wrong-revision', actual: 3 },
      { ok: true, revision: 5, globalPosition: 12, repeat: true },
      { ok: false, refusal: 'idempotency-mismatch', eventId: 'x' },
      { ok: false, refusal: 'empty' },
      { ok: false, refusal: 'failed', message: 'disk', code: 'SQLITE_FULL' },
      { ok: true, revision: 2 ** 40, globalPosition: 2 ** 50, repeat: false },
    ];
    expect(unpackOutcomes(structuredClone(packOutcomes(outcomes)))).toEqual(outcomes);
    expect(unpackOutcomes(packOutcomes([]))).toEqual([]);
  });
});
