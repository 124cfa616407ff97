import { newTestEvent } from '../../event-store/event-store.contract';
import { readCheckpoint } from './apply-batch';
import type { RecordedEvent } from '../../event-store/event-store.port';
import { ApplyThread } from './thread-applier';
import {
  COUNTER_CATALOG,
  COUNTERS,
  COUNTERS_APART,
  COUNTERS_BULK,
  COUNTERS_TOO,
  POISONED,
} from '../../../test/fixtures/counter-catalog';
import {
  INCREMENTED,
  actualCounters,
  appendCounterEvents,
  counterProjection,
  expectedFromLog,
  waitUntil,
} from '../../../test/fixtures/counter-projection';
import { ReadSide } from '../../../test/fixtures/read-side-harness';

/** An apply thread that counts what it is asked to do, by operation and projection. */
class CountingThread extends ApplyThread {
  readonly requests: Array<{ op: string; name?: string; events?: number }> = [];

  override call(request: Parameters<ApplyThread['call']>[0]): ReturnType<ApplyThread['call']> {
    this.requests.push({
      op: request.op,
      name: 'name' in request ? request.name : undefined,
      events: 'events' in request ? request.events.length : undefined,
    });
    return super.call(request);
  }

  applied(name: string): number {
    return this.requests.filter((c) => c.op === 'apply' && c.name === name).reduce((n, c) => n + (c.events ?? 0), 0);
  }
}

describe('the read-model apply thread', () => {
  let side: ReadSide;

  beforeEach(() => {
    side = new ReadSide();
  });

  afterEach(async () => {
    await side.cleanup();
  });

  it("writes an accepted projection's batches on the thread: reads, read-your-writes and listeners see them here", async () => {
    const thread = new CountingThread(COUNTER_CATALOG);
    const store = await side.openStore();
    const { readModels } = await side.startReadModels([COUNTERS], { store, applyThread: thread });
    const heard: RecordedEvent[] = [];
    readModels.onApplied('counters', (batch) => heard.push(...batch));

    const head = await appendCounterEvents(store, { events: 600, streams: 7, ignoredEvery: 5 });
    await readModels.waitFor(head, ['counters']);

    const expected = await expectedFromLog(store);
    const actual = await actualCounters(readModels.source('counters'));
    expect(actual.lines).toBe(expected.lines);
    expect(actual.counters).toEqual(expected.counters);
    expect(await readCheckpoint(readModels.source('counters'), 'counters')).toBe(head);
    // only the events the projection handles cross to the thread; every one of them, once
    expect(thread.applied('counters')).toBe(expected.lines);
    expect(heard).toHaveLength(600);
    expect(heard[heard.length - 1].position).toBe(head);
    expect((await readModels.status())[0]).toMatchObject({ state: 'serving', error: null });
  });

  it('read models that share the batches of the log get them in one message each: every event crosses once, parsed once', async () => {
    const thread = new CountingThread(COUNTER_CATALOG);
    const store = await side.openStore();
    const names = ['counters', 'counters-too', 'poisoned'];
    const { readModels } = await side.startReadModels([COUNTERS, COUNTERS_TOO, POISONED], {
      store,
      applyThread: thread,
    });
    const head = await appendCounterEvents(store, { events: 900, streams: 9, ignoredEvery: 4, chunk: 30 });
    await readModels.waitFor(head, names);

    const expected = await expectedFromLog(store);
    for (const name of names) {
      expect(await actualCounters(readModels.source(name))).toEqual({
        lines: expected.lines,
        counters: expected.counters,
      });
      expect(thread.applied(name)).toBe(expected.lines);
    }
    // three runners' batches, each handled event sent once: the runners take their batches together
    expect(thread.sent.parts).toBeGreaterThanOrEqual(2 * thread.sent.messages);
    expect(thread.sent.events).toBe(expected.lines);
  });

  it('a read model that applies apart gets a thread of its own: the batch crosses to each thread once', async () => {
    const thread = new CountingThread(COUNTER_CATALOG);
    const store = await side.openStore();
    const names = ['counters', 'counters-too', 'counters-apart'];
    const { readModels } = await side.startReadModels([COUNTERS, COUNTERS_TOO, COUNTERS_APART], {
      store,
      applyThread: thread,
    });
    const head = await appendCounterEvents(store, { events: 600, streams: 6, ignoredEvery: 4, chunk: 30 });
    await readModels.waitFor(head, names);

    const expected = await expectedFromLog(store);
    for (const name of names)
      expect(await actualCounters(readModels.source(name))).toEqual({
        lines: expected.lines,
        counters: expected.counters,
      });
    // once to the shared thread (counters, counters-too), once to counters-apart's
    expect(thread.sent.events).toBe(2 * expected.lines);
  });

  it('applies a projection its catalog does not hold on the calling thread', async () => {
    const thread = new CountingThread(COUNTER_CATALOG);
    const own = counterProjection({ name: 'own-counters' });
    const store = await side.openStore();
    const { readModels } = await side.startReadModels([own, COUNTERS], { store, applyThread: thread });
    const head = await appendCounterEvents(store, { events: 90, streams: 3 });
    await readModels.waitFor(head, ['own-counters', 'counters']);

    expect(thread.accepts(own)).toBe(false);
    expect(thread.requests.filter((c) => c.name === 'own-counters')).toEqual([]);
    const expected = await expectedFromLog(store);
    expect(await actualCounters(readModels.source('own-counters'))).toEqual({
      lines: expected.lines,
      counters: expected.counters,
    });
    expect(await actualCounters(readModels.source('counters'))).toEqual({
      lines: expected.lines,
      counters: expected.counters,
    });
  });

  it('a thread that dies mid-stream is started again, and the runner goes on from its checkpoint: every event applied once', async () => {
    const thread = new ApplyThread(COUNTER_CATALOG);
    const store = await side.openStore();
    const { readModels } = await side.startReadModels([COUNTERS], { store, applyThread: thread });
    await readModels.waitFor(await appendCounterEvents(store, { events: 200, streams: 4, prefix: 'before' }), [
      'counters',
    ]);

    const appending = appendCounterEvents(store, { events: 400, streams: 4, prefix: 'during', chunk: 5 });
    await thread.crash();
    const head = await appending;
    // the batch in flight failed with the thread; the runner retries it (RETRY_MS) on a new thread
    await readModels.waitFor(head, ['counters']);

    const expected = await expectedFromLog(store);
    const actual = await actualCounters(readModels.source('counters'));
    // `line` rows are plain inserts keyed by (stream, revision): a batch applied twice would have failed
    expect(actual.lines).toBe(expected.lines);
    expect(actual.counters).toEqual(expected.counters);
    expect((await readModels.status())[0]).toMatchObject({ state: 'serving', error: null, position: head });
  });

  it('a handler that throws on the thread: its batch rolls back, the event is dead-lettered, and the runner goes on', async () => {
    const store = await side.openStore();
    const { readModels, registry } = await side.startReadModels([POISONED], {
      store,
      applyThread: new ApplyThread(COUNTER_CATALOG),
    });
    const good = await store.append('poisoned-1', [newTestEvent(INCREMENTED, { by: 2 })]);
    await readModels.waitFor(good.position, ['poisoned']);
    const bad = await store.append('poisoned-1', [
      newTestEvent(INCREMENTED, { by: 3 }),
      newTestEvent(INCREMENTED, { by: 4, poison: true }),
    ]);

    await readModels.waitFor(bad.position, ['poisoned']);
    expect((await readModels.status())[0]).toMatchObject({ state: 'serving', degraded: true, deadLetters: 1 });
    const [letter] = await registry.deadLetters.list({ name: 'poisoned' });
    expect(letter.error).toMatch(/poison event at revision 2/);
    const source = readModels.source('poisoned');
    expect(await readCheckpoint(source, 'poisoned')).toBe(bad.position);
    // the good event of the failed batch applied on the slow path; the poison one did not
    expect(await actualCounters(source)).toMatchObject({ lines: 2 });
  });

  it('under load, events gather between batches: fewer, larger transactions', async () => {
    const thread = new CountingThread(COUNTER_CATALOG, 300);
    const store = await side.openStore();
    const { readModels } = await side.startReadModels([COUNTERS], { store, applyThread: thread });
    await readModels.waitFor((await store.append('g-0', [newTestEvent(INCREMENTED, { by: 1 })])).position, [
      'counters',
    ]);
    const before = thread.requests.filter((r) => r.op === 'apply').length;
    // 20 appends one after another, nobody waiting: they land in the pause after the first batch
    let last = '';
    for (let i = 1; i <= 20; i++)
      last = (await store.append(`g-${i}`, [newTestEvent(INCREMENTED, { by: 1 })])).position;
    await waitUntil(
      async () => (await readModels.status())[0].position === last,
      'the 20 events are applied',
      3000,
      10,
    );
    const batches = thread.requests.filter((r) => r.op === 'apply').length - before;
    expect(batches).toBeLessThanOrEqual(3);
    expect((await actualCounters(readModels.source('counters'))).lines).toBe(21);
  });

  it('read-your-writes does not wait for the pause: a waiter ends it', async () => {
    const thread = new CountingThread(COUNTER_CATALOG, 5000);
    const store = await side.openStore();
    const { readModels } = await side.startReadModels([COUNTERS], { store, applyThread: thread });
    await readModels.waitFor((await store.append('w-0', [newTestEvent(INCREMENTED, { by: 1 })])).position, [
      'counters',
    ]);
    // the runner now pauses for 5 s; a write that someone reads back must not
    const started = Date.now();
    const written = await store.append('w-1', [newTestEvent(INCREMENTED, { by: 1 })]);
    await readModels.waitFor(written.position, ['counters']);
    expect(Date.now() - started).toBeLessThan(1000);
    expect((await actualCounters(readModels.source('counters'))).lines).toBe(2);
  });

  it('stopping the read models lets the thread finish and exit; it takes no work after that', async () => {
    const thread = new ApplyThread(COUNTER_CATALOG);
    const store = await side.openStore();
    const { readModels, stop } = await side.startReadModels([COUNTERS], { store, applyThread: thread });
    const head = await appendCounterEvents(store, { events: 50, streams: 2 });
    await readModels.waitFor(head, ['counters']);
    await stop();
    await expect(thread.call({ op: 'close', file: 'anything' })).rejects.toThrow(/closed/);
  });

  it('a generation built from the start leaves out its bulk part, builds it before it serves, then goes on row by row', async () => {
    const thread = new CountingThread(COUNTER_CATALOG);
    const store = await side.openStore();
    const head = await appendCounterEvents(store, { events: 600, streams: 7, ignoredEvery: 5, chunk: 20 });
    const { readModels } = await side.startReadModels([COUNTERS_BULK], { store, applyThread: thread });
    await readModels.waitFor(head, ['counters-bulk']);

    const ops = thread.requests.filter((r) => r.name === 'counters-bulk').map((r) => r.op);
    expect(ops.indexOf('bulk-begin')).toBeGreaterThanOrEqual(0);
    expect(ops.indexOf('bulk-begin')).toBeLessThan(ops.indexOf('apply'));
    expect(ops.lastIndexOf('bulk-end')).toBeGreaterThan(ops.lastIndexOf('apply'));
    const source = readModels.source('counters-bulk');
    const copied = async () =>
      (await source.query('SELECT stream_id, revision FROM line_copy ORDER BY stream_id, revision')) as unknown[];
    const lines = async () =>
      (await source.query('SELECT stream_id, revision FROM line ORDER BY stream_id, revision')) as unknown[];
    expect(await copied()).toEqual(await lines());
    expect((await lines()).length).toBe((await expectedFromLog(store)).lines);
    expect(
      await source.query(`SELECT name FROM sqlite_master WHERE name LIKE 'bulk%' OR name = 'line_copy_insert'`),
    ).toEqual([{ name: 'line_copy_insert' }]);

    // serving: the trigger keeps the copy as each batch lands
    const more = await appendCounterEvents(store, { events: 60, streams: 3, prefix: 'later' });
    await readModels.waitFor(more, ['counters-bulk']);
    expect(await copied()).toEqual(await lines());
    expect((await copied()).length).toBe((await expectedFromLog(store)).lines);
  });
});
