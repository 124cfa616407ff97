/**
 * Contract tests for the EventStore port (event-store.port.ts). Every adapter runs this same suite
 * from its own spec file:
 *
 *   describeEventStoreContract('MyStore', async () => {
 *     const store = await MyStore.open(...);
 *     return { store, cleanup: async () => { await store.close(); ... } };
 *   });
 *
 * Each test opens a fresh, empty store and calls `cleanup` afterwards. `cleanup` must tolerate a
 * store the test has already closed. Waits are always bounded (WAIT_MS), never open-ended loops.
 */
import { randomUUID } from 'node:crypto';
import type {
  AppendResult,
  BatchHandler,
  EventMetadata,
  EventStore,
  ExpectedRevision,
  NewEvent,
  RecordedEvent,
  StreamRevision,
  SubscribeOptions,
  Subscription,
} from './event-store.port';
import { START, comparePositions, isPosition, type Position } from './position';
import { EventStoreClosedError, IdempotencyMismatchError, WrongExpectedRevisionError } from './errors';

export type OpenEventStore = () => Promise<{ store: EventStore; cleanup: () => Promise<void> }>;

/** Longest wait for something that should happen (an event reaching a subscriber, done settling). */
const WAIT_MS = 5000;
/** How long to watch for something that must NOT happen (a batch while back-pressured, after stop). */
const QUIET_MS = 150;

/** A NewEvent with a fresh id and complete metadata. */
export function newTestEvent<T = Record<string, unknown>>(
  type = 'TestEvent',
  data: T = {} as T,
  extraMetadata: Record<string, unknown> = {},
): NewEvent<T> {
  const metadata: EventMetadata = {
    schemaVersion: 1,
    actor: 'test',
    correlationId: randomUUID(),
    causationId: null,
    occurredAt: new Date().toISOString(),
    ...extraMetadata,
  };
  return { id: randomUUID(), type, data, metadata };
}

function events(count: number, type = 'TestEvent'): NewEvent[] {
  return Array.from({ length: count }, (_, i) => newTestEvent(type, { i }));
}

function streamName(prefix: string): string {
  return `${prefix}-${randomUUID().slice(0, 8)}`;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Polls `condition` until it holds, failing with `what` after `timeoutMs`. */
async function waitUntil(condition: () => boolean, what: string, timeoutMs = WAIT_MS): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for: ${what}`);
    await sleep(2);
  }
}

/** Settles like `promise`, or rejects after `timeoutMs`. */
async function within<T>(promise: Promise<T>, what: string, timeoutMs = WAIT_MS): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`timed out after ${timeoutMs} ms waiting for: ${what}`)), timeoutMs);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** The rejection reason of `promise` (fails when it resolves). */
async function rejectionOf(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected the promise to reject, but it resolved');
}

async function expectWrongRevision(
  promise: Promise<unknown>,
  streamId: string,
  expected: ExpectedRevision,
  actual: StreamRevision | null,
): Promise<void> {
  const error = await rejectionOf(promise);
  expect(error).toBeInstanceOf(WrongExpectedRevisionError);
  const wrong = error as WrongExpectedRevisionError;
  expect(wrong.streamId).toBe(streamId);
  expect(wrong.expected).toBe(expected);
  expect(wrong.actual).toBe(actual);
}

function expectStrictlyIncreasing(positions: Position[]): void {
  for (let i = 1; i < positions.length; i++) {
    if (comparePositions(positions[i - 1], positions[i]) !== -1) {
      throw new Error(`positions not strictly increasing at ${i}: ${positions[i - 1]} then ${positions[i]}`);
    }
  }
}

/** The whole log, in pages (so no adapter default page size can hide events). */
async function readWholeLog(store: EventStore, pageSize = 250): Promise<RecordedEvent[]> {
  const all: RecordedEvent[] = [];
  let after: Position = START;
  for (let page = 0; page < 10_000; page++) {
    const batch = await store.readAll({ after, maxCount: pageSize });
    if (batch.length === 0) return all;
    expect(batch.length).toBeLessThanOrEqual(pageSize);
    all.push(...batch);
    after = batch[batch.length - 1].position;
  }
  throw new Error('readAll did not reach the end of the log');
}

/**
 * Events as a reader sees them, field by field: a store may hand subscribers events whose data is
 * parsed when first read (the SQLite store's LazyStoredEvent), equal in every field to a read's.
 */
export function asRead(list: RecordedEvent[]): RecordedEvent[] {
  return list.map(({ id, streamId, revision, position, type, data, metadata }) => ({
    id,
    streamId,
    revision,
    position,
    type,
    data,
    metadata,
  }));
}

function ids(list: Array<{ id: string }>): string[] {
  return list.map((event) => event.id);
}

function expectNoDuplicates(values: string[]): void {
  const seen = new Set<string>();
  const duplicates = values.filter((value) => (seen.has(value) ? true : (seen.add(value), false)));
  expect(duplicates).toEqual([]);
}

interface Collector {
  subscription: Subscription;
  events: RecordedEvent[];
  batches: RecordedEvent[][];
}

export function describeEventStoreContract(name: string, open: OpenEventStore): void {
  describe(name, () => {
    let store: EventStore;
    let cleanup: () => Promise<void>;
    let subscriptions: Subscription[] = [];

    beforeEach(async () => {
      ({ store, cleanup } = await open());
      subscriptions = [];
    });

    afterEach(async () => {
      // Stop what a failing test may have left running before the store goes away.
      await Promise.all(
        subscriptions.map((s) => within(s.stop(), 'subscription stop in afterEach').catch(() => undefined)),
      );
      await cleanup();
    });

    /** subscribeToAll, stopped after the test; `done` gets a no-op catch so a failure is never unhandled. */
    function subscribe(options: SubscribeOptions, handler: BatchHandler): Subscription {
      const subscription = store.subscribeToAll(options, handler);
      subscription.done.catch(() => undefined);
      subscriptions.push(subscription);
      return subscription;
    }

    function collect(options: SubscribeOptions = {}): Collector {
      const collector = { events: [], batches: [] } as unknown as Collector;
      collector.subscription = subscribe(options, (batch) => {
        collector.batches.push(batch);
        collector.events.push(...batch);
      });
      return collector;
    }

    /** Appends one event per call, sequentially; returns the results in order. */
    async function appendOneByOne(streamId: string, count: number, type = 'TestEvent'): Promise<AppendResult[]> {
      const results: AppendResult[] = [];
      for (let i = 0; i < count; i++) results.push(await store.append(streamId, [newTestEvent(type, { i })], 'any'));
      return results;
    }

    describe('append', () => {
      it('appends to a new stream with no_stream: revision 0n (bigint), result points at it', async () => {
        const s = streamName('order');
        const e = newTestEvent('OrderPlaced', { total: 3 });
        const result = await store.append(s, [e], 'no_stream');

        expect(typeof result.nextExpectedRevision).toBe('bigint');
        expect(result.nextExpectedRevision).toBe(0n);
        expect(isPosition(result.position)).toBe(true);
        expect(comparePositions(result.position, START)).toBe(1);

        const read = await store.readStream(s);
        expect(read).toHaveLength(1);
        expect(read[0].id).toBe(e.id);
        expect(read[0].streamId).toBe(s);
        expect(read[0].type).toBe('OrderPlaced');
        expect(typeof read[0].revision).toBe('bigint');
        expect(read[0].revision).toBe(0n);
        expect(read[0].position).toBe(result.position);
        expect(isPosition(read[0].position)).toBe(true);
      });

      it('appends to a new stream with any', async () => {
        const s = streamName('any');
        const result = await store.append(s, [newTestEvent()], 'any');
        expect(result.nextExpectedRevision).toBe(0n);
        expect(isPosition(result.position)).toBe(true);
        const second = await store.append(s, [newTestEvent()], 'any');
        expect(second.nextExpectedRevision).toBe(1n);
        expect((await store.readStream(s)).map((e) => e.revision)).toEqual([0n, 1n]);
      });

      it('appends with stream_exists to an existing stream', async () => {
        const s = streamName('exists');
        await store.append(s, [newTestEvent()], 'no_stream');
        const result = await store.append(s, [newTestEvent()], 'stream_exists');
        expect(result.nextExpectedRevision).toBe(1n);
      });

      it('appends with the right exact revision; nextExpectedRevision chains appends', async () => {
        const s = streamName('exact');
        let result = await store.append(s, [newTestEvent()], 'no_stream');
        for (let i = 0; i < 4; i++) {
          const next = await store.append(s, [newTestEvent()], result.nextExpectedRevision);
          expect(next.nextExpectedRevision).toBe(result.nextExpectedRevision + 1n);
          expect(comparePositions(result.position, next.position)).toBe(-1);
          result = next;
        }
        expect((await store.readStream(s)).map((e) => e.revision)).toEqual([0n, 1n, 2n, 3n, 4n]);
      });

      it('gives a multi-event append consecutive revisions and one increasing position per event', async () => {
        const s = streamName('multi');
        await store.append(s, [newTestEvent()], 'no_stream');
        const batch = events(5);
        const result = await store.append(s, batch, 0n);

        expect(result.nextExpectedRevision).toBe(5n);
        const read = await store.readStream(s);
        expect(ids(read)).toEqual([read[0].id, ...ids(batch)]);
        expect(read.map((e) => e.revision)).toEqual([0n, 1n, 2n, 3n, 4n, 5n]);
        expectStrictlyIncreasing(read.map((e) => e.position));
        expect(new Set(read.map((e) => e.position)).size).toBe(read.length);
        // The result's position is that of the last event written by this append.
        expect(result.position).toBe(read[read.length - 1].position);
      });

      it('positions strictly increase across appends to different streams', async () => {
        const results: AppendResult[] = [];
        for (let i = 0; i < 10; i++) {
          results.push(await store.append(streamName(`s${i % 3}`), [newTestEvent()], 'any'));
        }
        for (const r of results) expect(isPosition(r.position)).toBe(true);
        expectStrictlyIncreasing(results.map((r) => r.position));
      });

      it('rejects appends after close() with EventStoreClosedError', async () => {
        await store.append(streamName('closing'), [newTestEvent()], 'any');
        await store.close();
        expect(await rejectionOf(store.append(streamName('closed'), [newTestEvent()], 'any'))).toBeInstanceOf(
          EventStoreClosedError,
        );
      });
    });

    describe('expected revision conflicts', () => {
      it('rejects no_stream on an existing stream and writes nothing', async () => {
        const s = streamName('c1');
        const first = await store.append(s, [newTestEvent()], 'no_stream');
        await expectWrongRevision(store.append(s, [newTestEvent()], 'no_stream'), s, 'no_stream', 0n);
        const read = await store.readStream(s);
        expect(read).toHaveLength(1);
        expect(await store.headPosition()).toBe(first.position);
      });

      it('rejects stream_exists on a missing stream and writes nothing', async () => {
        const s = streamName('c2');
        await expectWrongRevision(store.append(s, [newTestEvent()], 'stream_exists'), s, 'stream_exists', null);
        expect(await store.readStream(s)).toEqual([]);
        expect(await store.readAll()).toEqual([]);
        expect(await store.headPosition()).toBe(START);
      });

      it('rejects an exact revision that is too low, carrying the actual revision', async () => {
        const s = streamName('c3');
        await store.append(s, events(3), 'no_stream'); // last revision 2
        await expectWrongRevision(store.append(s, [newTestEvent()], 1n), s, 1n, 2n);
        await expectWrongRevision(store.append(s, [newTestEvent()], 0n), s, 0n, 2n);
        expect(await store.readStream(s)).toHaveLength(3);
      });

      it('rejects an exact revision that is too high, carrying the actual revision', async () => {
        const s = streamName('c4');
        await store.append(s, events(2), 'no_stream'); // last revision 1
        await expectWrongRevision(store.append(s, events(2), 2n), s, 2n, 1n);
        await expectWrongRevision(store.append(s, [newTestEvent()], 10n), s, 10n, 1n);
        expect(await store.readStream(s)).toHaveLength(2);
      });

      it('rejects an exact revision on a missing stream with actual null', async () => {
        const s = streamName('c5');
        await expectWrongRevision(store.append(s, [newTestEvent()], 0n), s, 0n, null);
        expect(await store.readStream(s)).toEqual([]);
      });

      it('a rejected multi-event append writes none of its events', async () => {
        const s = streamName('c6');
        await store.append(s, [newTestEvent()], 'no_stream');
        const rejected = events(4);
        await expectWrongRevision(store.append(s, rejected, 'no_stream'), s, 'no_stream', 0n);
        const all = await store.readAll();
        expect(all).toHaveLength(1);
        for (const e of rejected) expect(ids(all)).not.toContain(e.id);
      });
    });

    describe('idempotent retries', () => {
      it('a retry with the same ids and no_stream returns the original result and writes nothing', async () => {
        const s = streamName('i1');
        const batch = events(3);
        const original = await store.append(s, batch, 'no_stream');
        // no_stream would now conflict: a retry must still answer the original result.
        const retry = await store.append(s, batch, 'no_stream');
        expect(retry.nextExpectedRevision).toBe(original.nextExpectedRevision);
        expect(retry.position).toBe(original.position);
        expect(await store.readStream(s)).toHaveLength(3);
        expect(await store.headPosition()).toBe(original.position);
      });

      it('a retry with any returns the original result and writes nothing', async () => {
        const s = streamName('i2');
        const e = newTestEvent();
        const original = await store.append(s, [e], 'any');
        const retry = await store.append(s, [e], 'any');
        expect(retry).toEqual(original);
        expect(await store.readStream(s)).toHaveLength(1);
      });

      it('a retry with an exact revision returns the original result after the stream moved on', async () => {
        const s = streamName('i3');
        await store.append(s, [newTestEvent()], 'no_stream');
        const batch = events(2);
        const original = await store.append(s, batch, 0n); // revisions 1, 2
        const later = await store.append(s, [newTestEvent()], 2n); // revision 3
        const retry = await store.append(s, batch, 0n); // 0n would now conflict
        expect(retry.nextExpectedRevision).toBe(2n);
        expect(retry.position).toBe(original.position);
        const read = await store.readStream(s);
        expect(read).toHaveLength(4);
        expect(await store.headPosition()).toBe(later.position);
      });

      it('a retry with the same ids and stream_exists returns the original result', async () => {
        const s = streamName('i4');
        await store.append(s, [newTestEvent()], 'no_stream');
        const e = newTestEvent();
        const original = await store.append(s, [e], 'stream_exists');
        await store.append(s, [newTestEvent()], 'any');
        const retry = await store.append(s, [e], 'stream_exists');
        expect(retry).toEqual(original);
        expect(await store.readStream(s)).toHaveLength(3);
      });

      it('a retry running concurrently with the original append writes once; both get the same result', async () => {
        const s = streamName('i-concurrent');
        const batch = events(3);
        const others = Array.from({ length: 4 }, () => store.append(streamName('noise'), [newTestEvent()], 'any'));
        const [original, retry, retryAny] = await Promise.all([
          store.append(s, batch, 'no_stream'),
          store.append(s, batch, 'no_stream'),
          store.append(s, batch, 'any'),
        ]);
        await Promise.all(others);
        expect(retry).toEqual(original);
        expect(retryAny).toEqual(original);
        expect(original.nextExpectedRevision).toBe(2n);
        expect(ids(await store.readStream(s))).toEqual(ids(batch));
        expect(await store.readAll()).toHaveLength(3 + 4);
      });

      it('rejects an append mixing stored ids with new ones (stored first) and writes nothing', async () => {
        const s = streamName('i5');
        const stored = events(2);
        await store.append(s, stored, 'no_stream');
        const fresh = newTestEvent();
        const error = await rejectionOf(store.append(s, [...stored, fresh], 'any'));
        expect(error).toBeInstanceOf(IdempotencyMismatchError);
        expect((error as IdempotencyMismatchError).streamId).toBe(s);
        // The error names an id that "is already stored as part of a different append".
        expect(ids(stored)).toContain((error as IdempotencyMismatchError).eventId);
        const read = await store.readStream(s);
        expect(ids(read)).toEqual(ids(stored));
      });

      it('rejects an append mixing new ids with stored ones (new first) and writes nothing', async () => {
        const s = streamName('i6');
        const stored = events(2);
        await store.append(s, stored, 'no_stream');
        const fresh = newTestEvent();
        const error = await rejectionOf(store.append(s, [fresh, stored[0]], 1n));
        expect(error).toBeInstanceOf(IdempotencyMismatchError);
        expect((error as IdempotencyMismatchError).streamId).toBe(s);
        expect(ids(stored)).toContain((error as IdempotencyMismatchError).eventId);
        expect(ids(await store.readStream(s))).toEqual(ids(stored));
      });
    });

    describe('readStream', () => {
      async function seed(count: number): Promise<{ s: string; appended: NewEvent[] }> {
        const s = streamName('read');
        const other = streamName('other');
        const appended = events(count);
        // Interleave another stream so readStream must filter by stream.
        for (let i = 0; i < count; i++) {
          await store.append(s, [appended[i]], i === 0 ? 'no_stream' : BigInt(i - 1));
          await store.append(other, [newTestEvent('Other')], 'any');
        }
        return { s, appended };
      }

      it('returns [] for an unknown stream, in both directions', async () => {
        await store.append(streamName('known'), [newTestEvent()], 'any');
        expect(await store.readStream('unknown-stream')).toEqual([]);
        expect(await store.readStream('unknown-stream', { direction: 'backwards' })).toEqual([]);
        expect(await store.readStream('unknown-stream', { fromRevision: 0n, maxCount: 5 })).toEqual([]);
      });

      it('reads forwards by default, only this stream, with its revisions and positions', async () => {
        const { s, appended } = await seed(5);
        const read = await store.readStream(s);
        expect(ids(read)).toEqual(ids(appended));
        expect(read.map((e) => e.revision)).toEqual([0n, 1n, 2n, 3n, 4n]);
        for (const e of read) {
          expect(e.streamId).toBe(s);
          expect(isPosition(e.position)).toBe(true);
        }
        expectStrictlyIncreasing(read.map((e) => e.position));
        expect(ids(await store.readStream(s, { direction: 'forwards' }))).toEqual(ids(appended));
      });

      it('reads backwards from the last event', async () => {
        const { s, appended } = await seed(5);
        const read = await store.readStream(s, { direction: 'backwards' });
        expect(ids(read)).toEqual(ids(appended).reverse());
        expect(read.map((e) => e.revision)).toEqual([4n, 3n, 2n, 1n, 0n]);
      });

      it('fromRevision is inclusive, forwards and backwards', async () => {
        const { s, appended } = await seed(6);
        const forwards = await store.readStream(s, { fromRevision: 2n });
        expect(forwards.map((e) => e.revision)).toEqual([2n, 3n, 4n, 5n]);
        expect(ids(forwards)).toEqual(ids(appended.slice(2)));
        const backwards = await store.readStream(s, { direction: 'backwards', fromRevision: 3n });
        expect(backwards.map((e) => e.revision)).toEqual([3n, 2n, 1n, 0n]);
        expect((await store.readStream(s, { fromRevision: 5n })).map((e) => e.revision)).toEqual([5n]);
        expect(await store.readStream(s, { fromRevision: 6n })).toEqual([]);
        expect(
          (await store.readStream(s, { direction: 'backwards', fromRevision: 0n })).map((e) => e.revision),
        ).toEqual([0n]);
      });

      it('maxCount limits the events read, alone and with fromRevision', async () => {
        const { s } = await seed(6);
        expect((await store.readStream(s, { maxCount: 2 })).map((e) => e.revision)).toEqual([0n, 1n]);
        expect((await store.readStream(s, { direction: 'backwards', maxCount: 2 })).map((e) => e.revision)).toEqual([
          5n,
          4n,
        ]);
        expect((await store.readStream(s, { fromRevision: 3n, maxCount: 2 })).map((e) => e.revision)).toEqual([3n, 4n]);
        expect(
          (await store.readStream(s, { direction: 'backwards', fromRevision: 3n, maxCount: 3 })).map((e) => e.revision),
        ).toEqual([3n, 2n, 1n]);
        expect((await store.readStream(s, { maxCount: 100 })).map((e) => e.revision)).toEqual([0n, 1n, 2n, 3n, 4n, 5n]);
      });

      it('round-trips data and metadata exactly (nested JSON, unicode, extra metadata keys)', async () => {
        const s = streamName('roundtrip');
        const data = {
          text: 'héllo wörld — ünïcödé 日本語 中文 العربية עברית 🎉👩‍👩‍👧‍👦 \u00e9 vs e\u0301',
          escapes: 'quote " backslash \\ newline \n tab \t nul \u0000 control \u001f slash /',
          numbers: { int: 42, negative: -7, float: 3.141592653589793, tiny: 1e-12, big: 9007199254740991, zero: 0 },
          flags: [true, false, null],
          nested: { a: { b: { c: [1, [2, [3, { d: 'deep' }]]] } }, empty: {}, emptyList: [] },
          list: [{ k: 'v' }, 'mixed', 1, null],
          emptyString: '',
          'key with spaces & ünïcode 🔑': 'ok',
        };
        const e = newTestEvent('Rich.Type-v1', data, {
          tenant: 'acme',
          trace: { spanId: 'abc', sampled: true, tags: ['x', 'y'] },
          note: 'métadonnées ✓',
          retryCount: 0,
        });
        e.metadata.causationId = randomUUID();
        const plain = newTestEvent('Plain');
        await store.append(s, [e, plain], 'no_stream');

        for (const read of [await store.readStream(s), await store.readAll()]) {
          expect(read[0].type).toBe('Rich.Type-v1');
          expect(read[0].data).toEqual(data);
          expect(read[0].metadata).toEqual(e.metadata);
          expect(Object.keys(read[0].metadata).sort()).toEqual(Object.keys(e.metadata).sort());
          expect(read[1].data).toEqual({});
          expect(read[1].metadata).toEqual(plain.metadata);
          expect(read[1].metadata.causationId).toBeNull();
        }
      });
    });

    describe('readAll', () => {
      it('returns [] on an empty store', async () => {
        expect(await store.readAll()).toEqual([]);
        expect(await store.readAll({ after: START, maxCount: 10 })).toEqual([]);
      });

      it('returns events of all streams in global append order', async () => {
        const order: string[] = [];
        const streams = [streamName('a'), streamName('b'), streamName('c')];
        const results: AppendResult[] = [];
        for (let i = 0; i < 12; i++) {
          const batch = events(1 + (i % 2));
          results.push(await store.append(streams[(i * 7) % 3], batch, 'any'));
          order.push(...ids(batch));
        }
        const all = await store.readAll();
        expect(ids(all)).toEqual(order);
        expectStrictlyIncreasing(all.map((e) => e.position));
        // Each append's position is the recorded position of its last event.
        const byId = new Map(all.map((e) => [e.id, e]));
        for (const r of results) expect(all.some((e) => e.position === r.position)).toBe(true);
        // readAll and readStream agree on every field.
        for (const s of streams) {
          for (const e of await store.readStream(s)) expect(byId.get(e.id)).toEqual(e);
        }
      });

      it('after is exclusive', async () => {
        const results = await appendOneByOne(streamName('after'), 6);
        const all = await store.readAll();
        const after = await store.readAll({ after: all[2].position });
        expect(ids(after)).toEqual(ids(all.slice(3)));
        expect(await store.readAll({ after: results[5].position })).toEqual([]);
        expect(ids(await store.readAll({ after: START }))).toEqual(ids(all));
      });

      it('maxCount limits the events read, alone and with after', async () => {
        await appendOneByOne(streamName('max'), 7);
        const all = await store.readAll();
        expect(ids(await store.readAll({ maxCount: 3 }))).toEqual(ids(all.slice(0, 3)));
        expect(ids(await store.readAll({ after: all[3].position, maxCount: 2 }))).toEqual(ids(all.slice(4, 6)));
        expect(ids(await store.readAll({ after: all[5].position, maxCount: 5 }))).toEqual(ids(all.slice(6)));
      });

      it('without maxCount returns the whole log (no hidden page size)', async () => {
        const s = streamName('big');
        let expected: ExpectedRevision = 'no_stream';
        for (let i = 0; i < 12; i++) expected = (await store.append(s, events(100), expected)).nextExpectedRevision;
        expect((await readWholeLog(store)).length).toBe(1200);
        // The port documents no default page size for readAll (readStream has none either).
        expect((await store.readAll()).length).toBe(1200);
      });
    });

    describe('headPosition and countAfter', () => {
      it('headPosition is START and nothing counts on an empty store', async () => {
        expect(await store.headPosition()).toBe(START);
        const count = await store.countAfter(START);
        if (count !== null) expect(count).toBe(0);
      });

      it('headPosition is the last append position; countAfter counts the events after a position', async () => {
        await store.append(streamName('h1'), events(3), 'any');
        const middle = await store.append(streamName('h2'), [newTestEvent()], 'any');
        const last = await store.append(streamName('h1'), events(2), 'any');
        expect(await store.headPosition()).toBe(last.position);
        expect(isPosition(await store.headPosition())).toBe(true);

        const total = await store.countAfter(START);
        if (total !== null) {
          expect(total).toBe(6);
          expect(await store.countAfter(middle.position)).toBe(2);
          expect(await store.countAfter(last.position)).toBe(0);
        }
        const more = await store.append(streamName('h3'), [newTestEvent()], 'any');
        expect(await store.headPosition()).toBe(more.position);
        expect(comparePositions(more.position, last.position)).toBe(1);
      });
    });

    describe('subscribeToAll', () => {
      it('from the start delivers the existing events, then live ones, in readAll order', async () => {
        const s = streamName('sub');
        await store.append(s, events(3), 'no_stream');
        await store.append(streamName('sub-other'), events(2), 'any');
        const c = collect();
        await waitUntil(() => c.events.length === 5, 'the 5 existing events');

        await store.append(s, [newTestEvent()], 2n);
        await store.append(streamName('sub-late'), events(2), 'any');
        await waitUntil(() => c.events.length === 8, 'the 3 live events');

        const all = await store.readAll();
        expect(ids(c.events)).toEqual(ids(all));
        expect(asRead(c.events)).toEqual(all);
        await sleep(QUIET_MS / 3);
        expect(c.events).toHaveLength(8);
      });

      it('from a position delivers only the events strictly after it', async () => {
        await appendOneByOne(streamName('mid'), 6);
        const all = await store.readAll();
        const c = collect({ after: all[2].position });
        await waitUntil(() => c.events.length >= 3, 'the 3 events after the position');
        const late = await store.append(streamName('mid-late'), [newTestEvent()], 'any');
        await waitUntil(() => c.events.length >= 4, 'the live event');
        expect(ids(c.events)).toEqual([...ids(all.slice(3)), ...ids(await store.readAll({ after: all[5].position }))]);
        expect(c.events[c.events.length - 1].position).toBe(late.position);
        await sleep(QUIET_MS / 3);
        expect(c.events).toHaveLength(4);
      });

      it('from the head delivers only new events', async () => {
        await appendOneByOne(streamName('head'), 3);
        const c = collect({ after: await store.headPosition() });
        await sleep(QUIET_MS / 3);
        expect(c.events).toEqual([]);
        const e = newTestEvent('AfterHead');
        await store.append(streamName('head'), [e], 'any');
        await waitUntil(() => c.events.length >= 1, 'the event appended after the head');
        expect(ids(c.events)).toEqual([e.id]);
      });

      it('live: subscribed to an empty store, receives an event appended afterwards', async () => {
        const c = collect();
        await sleep(20);
        expect(c.events).toEqual([]);
        const e = newTestEvent('Live');
        const result = await store.append(streamName('live'), [e], 'no_stream');
        await waitUntil(() => c.events.length >= 1, 'the live event');
        expect(c.events).toHaveLength(1);
        expect(c.events[0].id).toBe(e.id);
        expect(c.events[0].position).toBe(result.position);
        expect(c.events[0].revision).toBe(0n);
      });

      it('never skips or repeats an event under many concurrent writers; order equals readAll', async () => {
        const WRITERS = 20;
        const APPENDS = 50;
        const shared = streamName('shared');
        const before = collect(); // running before the writers start
        let during: Collector | undefined; // started from the start while the writers run
        let duringFromMiddle: { c: Collector; after: Position } | undefined;
        let appendsDone = 0;
        const results = new Map<string, AppendResult>(); // last event id -> result

        await Promise.all(
          Array.from({ length: WRITERS }, async (_, w) => {
            const own = `writer-${w}-${randomUUID().slice(0, 8)}`;
            let expected: ExpectedRevision = 'no_stream';
            for (let i = 0; i < APPENDS; i++) {
              const batch = events(i % 10 === 9 ? 3 : 1, `Writer${w}`);
              let result: AppendResult;
              if (i % 5 === 4) {
                result = await store.append(shared, batch, 'any');
              } else {
                result = await store.append(own, batch, expected);
                expected = result.nextExpectedRevision;
              }
              results.set(batch[batch.length - 1].id, result);
              appendsDone++;
              if (appendsDone === 300 && !during) during = collect({ maxBatchSize: 7 });
              if (appendsDone === 600 && !duringFromMiddle) {
                duringFromMiddle = { c: collect({ after: result.position }), after: result.position };
              }
            }
          }),
        );

        const log = await readWholeLog(store);
        // 20 writers x 50 appends, every 10th append carries 3 events.
        expect(log).toHaveLength(WRITERS * (APPENDS + (APPENDS / 10) * 2));
        expectNoDuplicates(ids(log));
        expectStrictlyIncreasing(log.map((e) => e.position));
        // Every append's result is the recorded position and revision of its last event.
        const byId = new Map(log.map((e) => [e.id, e]));
        for (const [lastId, result] of results) {
          expect(byId.get(lastId)?.position).toBe(result.position);
          expect(byId.get(lastId)?.revision).toBe(result.nextExpectedRevision);
        }
        // The shared stream got consecutive revisions from 0, each taken once.
        const sharedEvents = await store.readStream(shared);
        expect(sharedEvents.map((e) => e.revision)).toEqual(sharedEvents.map((_, i) => BigInt(i)));

        const expectedIds = ids(log);
        const middle = duringFromMiddle!;
        const afterMiddle = ids(log.filter((e) => comparePositions(e.position, middle.after) === 1));
        await waitUntil(
          () =>
            before.events.length >= log.length &&
            during!.events.length >= log.length &&
            middle.c.events.length >= afterMiddle.length,
          'all subscriptions to catch up with the log',
          10_000,
        );
        await sleep(QUIET_MS / 3); // nothing extra may trickle in
        expect(ids(before.events)).toEqual(expectedIds);
        expect(ids(during!.events)).toEqual(expectedIds);
        expect(ids(middle.c.events)).toEqual(afterMiddle);
        for (const batch of during!.batches) expect(batch.length).toBeLessThanOrEqual(7);
      });

      it('batches respect maxBatchSize, in catch-up and live', async () => {
        const s = streamName('batches');
        await store.append(s, events(10), 'no_stream');
        await store.append(s, events(15), 9n);
        const c = collect({ maxBatchSize: 4 });
        await waitUntil(() => c.events.length === 25, 'the 25 existing events');
        await store.append(s, events(9), 24n);
        await waitUntil(() => c.events.length === 34, 'the 9 live events');
        expect(c.batches.length).toBeGreaterThanOrEqual(Math.ceil(34 / 4));
        for (const batch of c.batches) {
          expect(batch.length).toBeGreaterThan(0);
          expect(batch.length).toBeLessThanOrEqual(4);
        }
        expect(ids(c.events)).toEqual(ids(await store.readAll()));
        // Each batch starts strictly after the previous one.
        expectStrictlyIncreasing(c.events.map((e) => e.position));

        const one = collect({ maxBatchSize: 1 });
        await waitUntil(() => one.events.length === 34, 'all events one by one');
        expect(one.batches.every((b) => b.length === 1)).toBe(true);
      });

      it('back-pressure: no batch is delivered while the handler promise is pending', async () => {
        await appendOneByOne(streamName('bp'), 3);
        let release!: () => void;
        const gate = new Promise<void>((resolve) => (release = resolve));
        const batches: RecordedEvent[][] = [];
        let running = 0;
        let maxRunning = 0;
        subscribe({ maxBatchSize: 2 }, async (batch) => {
          running++;
          maxRunning = Math.max(maxRunning, running);
          batches.push(batch);
          if (batches.length === 1) await gate;
          running--;
        });
        await waitUntil(() => batches.length === 1, 'the first batch');
        await store.append(streamName('bp'), events(3), 'any');
        await sleep(QUIET_MS);
        expect(batches).toHaveLength(1);
        expect(batches[0]).toHaveLength(2);

        release();
        await waitUntil(() => batches.flat().length === 6, 'the remaining events after release');
        expect(maxRunning).toBe(1);
        expect(ids(batches.flat())).toEqual(ids(await store.readAll()));
      });

      it('stop() resolves, done resolves, and no batch arrives after it', async () => {
        await appendOneByOne(streamName('stop'), 3);
        const c = collect();
        await waitUntil(() => c.events.length === 3, 'the existing events');
        await within(c.subscription.stop(), 'stop()');
        await within(c.subscription.done, 'done after stop()');
        const batchesAtStop = c.batches.length;
        await store.append(streamName('stop'), events(2), 'any');
        await sleep(QUIET_MS);
        expect(c.batches).toHaveLength(batchesAtStop);
        expect(c.events).toHaveLength(3);
        await within(c.subscription.stop(), 'a second stop()');
      });

      it('stop() while a handler is pending resolves only once it settles, and delivers nothing more', async () => {
        await appendOneByOne(streamName('stop-pending'), 4);
        let release!: () => void;
        const gate = new Promise<void>((resolve) => (release = resolve));
        const batches: RecordedEvent[][] = [];
        let running = false;
        const subscription = subscribe({ maxBatchSize: 1 }, async (batch) => {
          batches.push(batch);
          running = true;
          await gate;
          running = false;
        });
        await waitUntil(() => batches.length === 1, 'the first batch');
        let stopped = false;
        const stopping = subscription.stop().then(() => {
          stopped = true;
          expect(running).toBe(false);
        });
        await sleep(50);
        expect(stopped).toBe(false);
        release();
        await within(stopping, 'stop() after the handler settled');
        await within(subscription.done, 'done after stop()');
        await store.append(streamName('stop-pending'), [newTestEvent()], 'any');
        await sleep(QUIET_MS);
        expect(batches).toHaveLength(1);
      });

      it('stop() during the handler of a batch that reached the head resolves with nothing more appended', async () => {
        // After this batch the loop would sleep until an append that never comes. A second
        // subscription keeps the store looking at the head meanwhile, so no later look wakes the first.
        await store.append(streamName('stop-at-head'), [newTestEvent(), newTestEvent()], 'no_stream');
        const watcher = subscribe({}, () => undefined);
        let release!: () => void;
        const gate = new Promise<void>((resolve) => (release = resolve));
        let entered = false;
        const subscription = subscribe({ maxBatchSize: 100 }, async () => {
          entered = true;
          await gate;
        });
        await waitUntil(() => entered, 'the batch');
        await sleep(3 * QUIET_MS);
        const stopping = subscription.stop();
        release();
        await within(stopping, 'stop() once the handler settled');
        await within(subscription.done, 'done after stop()');
        await watcher.stop();
      });

      it('a handler that throws makes done reject and ends the deliveries', async () => {
        await appendOneByOne(streamName('boom'), 2);
        const failure = new Error('handler failed');
        let calls = 0;
        const subscription = subscribe({ maxBatchSize: 1 }, () => {
          calls++;
          throw failure;
        });
        const reason = await within(rejectionOf(subscription.done), 'done to reject');
        expect(reason).toBeDefined();
        await store.append(streamName('boom'), [newTestEvent()], 'any');
        await sleep(QUIET_MS / 3);
        expect(calls).toBe(1);
        await within(subscription.stop(), 'stop() after a failure');
      });

      it('a handler whose promise rejects makes done reject', async () => {
        const subscription = subscribe({}, async () => {
          await sleep(1);
          throw new Error('async handler failed');
        });
        await store.append(streamName('boom-async'), [newTestEvent()], 'any');
        const reason = await within(rejectionOf(subscription.done), 'done to reject');
        expect(reason).toBeDefined();
      });

      it('filterTypes delivers only the events whose type passes the predicate, in order', async () => {
        const s = streamName('filter');
        const appended: NewEvent[] = [];
        for (let i = 0; i < 12; i++) {
          const e = newTestEvent(i % 3 === 0 ? `Keep.Type${i}` : `Drop.Type${i}`);
          appended.push(e);
          await store.append(s, [e], 'any');
        }
        const kept = collect({ filterTypes: (type) => type.startsWith('Keep.'), maxBatchSize: 2 });
        const expectedKept = () => ids(appended.filter((e) => e.type.startsWith('Keep.')));
        await waitUntil(() => kept.events.length === expectedKept().length, 'the kept existing events');

        const live = [newTestEvent('Drop.Live'), newTestEvent('Keep.Live'), newTestEvent('Drop.Live2')];
        appended.push(...live);
        await store.append(s, live, 'any');
        await waitUntil(() => kept.events.length === expectedKept().length, 'the kept live event');
        await sleep(QUIET_MS / 3);
        expect(ids(kept.events)).toEqual(expectedKept());
        expect(kept.events.every((e) => e.type.startsWith('Keep.'))).toBe(true);
        for (const batch of kept.batches) {
          expect(batch.length).toBeGreaterThan(0);
          expect(batch.length).toBeLessThanOrEqual(2);
        }
        expectStrictlyIncreasing(kept.events.map((e) => e.position));
      });
    });

    describe('concurrent writers', () => {
      it('exactly one of N concurrent appends with the same exact revision succeeds', async () => {
        const s = streamName('race');
        await store.append(s, [newTestEvent()], 'no_stream');
        const N = 10;
        const contenders = Array.from({ length: N }, () => newTestEvent('Contender'));
        const outcomes = await Promise.allSettled(contenders.map((e) => store.append(s, [e], 0n)));

        const won = outcomes.filter((o): o is PromiseFulfilledResult<AppendResult> => o.status === 'fulfilled');
        const lost = outcomes.filter((o): o is PromiseRejectedResult => o.status === 'rejected');
        expect(won).toHaveLength(1);
        expect(won[0].value.nextExpectedRevision).toBe(1n);
        expect(lost).toHaveLength(N - 1);
        for (const o of lost) {
          expect(o.reason).toBeInstanceOf(WrongExpectedRevisionError);
          expect(o.reason.streamId).toBe(s);
          expect(o.reason.expected).toBe(0n);
          expect(o.reason.actual).toBe(1n);
        }
        const read = await store.readStream(s);
        expect(read).toHaveLength(2);
        const winner = contenders[outcomes.findIndex((o) => o.status === 'fulfilled')];
        expect(read[1].id).toBe(winner.id);
      });

      it('exactly one of N concurrent no_stream appends creates the stream', async () => {
        const s = streamName('create-race');
        const outcomes = await Promise.allSettled(
          Array.from({ length: 8 }, () => store.append(s, events(2), 'no_stream')),
        );
        expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(1);
        for (const o of outcomes) {
          if (o.status === 'rejected') {
            expect(o.reason).toBeInstanceOf(WrongExpectedRevisionError);
            expect(o.reason.actual).toBe(1n);
          }
        }
        expect(await store.readStream(s)).toHaveLength(2);
      });

      it('failing appends in a concurrent group fail alone; the others commit', async () => {
        const existing = streamName('existing');
        const stored = events(2);
        await store.append(existing, stored, 'no_stream');

        const good = Array.from({ length: 6 }, (_, i) => ({ s: streamName(`good${i}`), e: newTestEvent('Good') }));
        const conflict = store.append(existing, [newTestEvent('Conflict')], 'no_stream');
        const conflict2 = store.append(streamName('missing'), [newTestEvent('Conflict')], 'stream_exists');
        const mismatch = store.append(existing, [stored[0], newTestEvent('Mismatch')], 'any');
        const goods = good.map(({ s, e }, i) => store.append(s, [e], i % 2 === 0 ? 'no_stream' : 'any'));
        const goodOnExisting = store.append(existing, [newTestEvent('GoodExisting')], 'any');

        const [rConflict, rConflict2, rMismatch, rGoodExisting, ...rGoods] = await Promise.allSettled([
          conflict,
          conflict2,
          mismatch,
          goodOnExisting,
          ...goods,
        ]);
        expect(rConflict.status).toBe('rejected');
        expect((rConflict as PromiseRejectedResult).reason).toBeInstanceOf(WrongExpectedRevisionError);
        expect(rConflict2.status).toBe('rejected');
        expect((rConflict2 as PromiseRejectedResult).reason).toBeInstanceOf(WrongExpectedRevisionError);
        expect(rMismatch.status).toBe('rejected');
        expect((rMismatch as PromiseRejectedResult).reason).toBeInstanceOf(IdempotencyMismatchError);
        expect(rGoodExisting.status).toBe('fulfilled');
        for (const r of rGoods) expect(r.status).toBe('fulfilled');

        for (const { s, e } of good) expect(ids(await store.readStream(s))).toEqual([e.id]);
        const onExisting = await store.readStream(existing);
        expect(onExisting.map((e) => e.type)).toEqual(['TestEvent', 'TestEvent', 'GoodExisting']);
        expect(await store.readAll()).toHaveLength(2 + good.length + 1);
      });

      it('an append whose data cannot be stored fails alone; concurrent appends commit', async () => {
        const circular: Record<string, unknown> = { name: 'loop' };
        circular.self = circular;
        const good = Array.from({ length: 5 }, () => ({ s: streamName('ok'), e: newTestEvent('Good') }));
        const outcomes = await Promise.allSettled([
          ...good.slice(0, 2).map(({ s, e }) => store.append(s, [e], 'no_stream')),
          store.append(streamName('bad'), [newTestEvent('Good'), newTestEvent('Bad', circular)], 'no_stream'),
          ...good.slice(2).map(({ s, e }) => store.append(s, [e], 'no_stream')),
        ]);
        expect(outcomes[2].status).toBe('rejected');
        const others = [...outcomes.slice(0, 2), ...outcomes.slice(3)];
        expect(others.map((o) => (o.status === 'rejected' ? `rejected: ${String(o.reason)}` : o.status))).toEqual(
          good.map(() => 'fulfilled'),
        );
        const all = await store.readAll();
        expect(all.map((e) => e.type)).toEqual(good.map(() => 'Good'));
        expect(new Set(ids(all))).toEqual(new Set(good.map(({ e }) => e.id)));
      });

      it('concurrent appends with any to one stream get distinct consecutive revisions', async () => {
        const s = streamName('any-race');
        const results = await Promise.all(Array.from({ length: 30 }, () => store.append(s, [newTestEvent()], 'any')));
        const revisions = results.map((r) => r.nextExpectedRevision).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
        expect(revisions).toEqual(results.map((_, i) => BigInt(i)));
        expect(new Set(results.map((r) => r.position)).size).toBe(30);
        const read = await store.readStream(s);
        expect(read.map((e) => e.revision)).toEqual(results.map((_, i) => BigInt(i)));
        expectStrictlyIncreasing(read.map((e) => e.position));
      });
    });
  });
}
