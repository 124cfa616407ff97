import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { asRead, describeEventStoreContract, newTestEvent } from '../event-store.contract';
import { START, comparePositions } from '../position';
import Database from 'better-sqlite3';
import type { RecordedEvent } from '../event-store.port';
import { globalPositionOf, storedRowOf } from './rows';
import { SqliteEventStore } from './sqlite-event-store';
import { patient } from '../../../test/support/patience';

type Sync = 'full' | 'normal';

function freshDir(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), 'parley-es-'));
}

function openFresh(sync: Sync, writer: 'thread' | 'inline' = 'thread') {
  return async () => {
    const dir = freshDir();
    const store = await SqliteEventStore.open({ file: path.join(dir, 'events.sqlite'), sync, writer });
    return {
      store,
      cleanup: async () => {
        try {
          await store.close(); // a no-op when the test already closed it
        } finally {
          fs.rmSync(dir, { recursive: true, force: true });
        }
      },
    };
  };
}

// The contract once per writer. `synchronous` only decides what a power cut may lose, never an
// answer the contract checks, so the two sync modes split the writers between them (and the file
// tests below run both): a third run was a minute of CI's time, mostly worker-thread starts.
describeEventStoreContract('SqliteEventStore (sync full, writer thread)', openFresh('full'));
describeEventStoreContract('SqliteEventStore (sync normal, inline writer)', openFresh('normal', 'inline'));

describe.each<Sync>(['full', 'normal'])('SqliteEventStore file (sync %s)', (sync) => {
  let dir: string;
  let file: string;
  const open: SqliteEventStore[] = [];

  async function openStore(): Promise<SqliteEventStore> {
    const store = await SqliteEventStore.open({ file, sync });
    open.push(store);
    return store;
  }

  beforeEach(() => {
    dir = freshDir();
    file = path.join(dir, 'events.sqlite');
  });

  afterEach(async () => {
    for (const store of open.splice(0)) await store.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('keeps positions dense when appends of one commit fail, so countAfter is a subtraction', async () => {
    const store = await openStore();
    const taken = newTestEvent();
    await store.append('dense-1', [taken], 'no_stream');
    // Appends queued together share a commit; the conflicting and unstorable ones fail alone.
    const results = await Promise.allSettled([
      store.append('dense-2', [newTestEvent(), newTestEvent()], 'no_stream'),
      store.append('dense-1', [newTestEvent()], 'no_stream'),
      store.append('dense-3', [newTestEvent('Bad', { n: 1n } as never)], 'no_stream'),
      store.append('dense-4', [newTestEvent()], 'no_stream'),
      store.append('dense-2', [newTestEvent()], 5n),
      store.append('dense-5', [newTestEvent(), newTestEvent(), newTestEvent()], 'no_stream'),
      // its first row is inserted before the second's id collides: the savepoint takes both back
      store.append('dense-7', [newTestEvent(), taken], 'no_stream'),
      store.append('dense-8', [newTestEvent()], 'no_stream'),
    ]);
    expect(results.map((r) => r.status)).toEqual([
      'fulfilled',
      'rejected',
      'rejected',
      'fulfilled',
      'rejected',
      'fulfilled',
      'rejected',
      'fulfilled',
    ]);
    await store.append('dense-6', [newTestEvent()], 'no_stream');
    const all = await store.readAll();
    const numbers = all.map((e) => globalPositionOf(e.position));
    expect(numbers).toEqual(numbers.map((_, i) => i + 1));
    expect(await store.countAfter(START)).toBe(all.length);
    expect(await store.countAfter(all[2].position)).toBe(all.length - 3);
    expect(await store.countAfter(all[all.length - 1].position)).toBe(0);
  });

  it('keeps the data across close and reopen of the same file', async () => {
    const first = await openStore();
    const a = newTestEvent('Opened', { nested: { list: [1, 'two', null] }, text: 'ünïcödé 🎉' }, { tenant: 'acme' });
    const b = newTestEvent('Continued');
    await first.append('persist-1', [a], 'no_stream');
    const last = await first.append('persist-1', [b], 0n);
    await first.append('persist-2', [newTestEvent()], 'no_stream');
    const before = await first.readAll();
    const headBefore = await first.headPosition();
    await first.close();

    const second = await openStore();
    expect(await second.readAll()).toEqual(before);
    expect(await second.headPosition()).toBe(headBefore);
    expect(await second.countAfter(START)).toBe(3);
    const stream = await second.readStream('persist-1');
    expect(stream.map((e) => e.id)).toEqual([a.id, b.id]);
    expect(stream[0].data).toEqual(a.data);
    expect(stream[0].metadata).toEqual(a.metadata);
    expect(stream[1].position).toBe(last.position);

    // Expected revisions and idempotency carry over the reopen.
    await expect(second.append('persist-1', [newTestEvent()], 0n)).rejects.toMatchObject({ actual: 1n });
    expect(await second.append('persist-1', [b], 0n)).toEqual(last);
    expect((await second.append('persist-1', [newTestEvent()], 1n)).nextExpectedRevision).toBe(2n);
  });

  it('never reuses a global position after reopen', async () => {
    const first = await openStore();
    await first.append('positions', [newTestEvent(), newTestEvent()], 'no_stream');
    const beforeClose = await first.append('positions-other', [newTestEvent()], 'no_stream');
    await first.close();

    const second = await openStore();
    const afterReopen = await second.append('positions-third', [newTestEvent()], 'no_stream');
    expect(comparePositions(afterReopen.position, beforeClose.position)).toBe(1);
    const all = await second.readAll();
    expect(new Set(all.map((e) => e.position)).size).toBe(all.length);
    expect(all[all.length - 1].position).toBe(afterReopen.position);
    await second.close();

    const third = await openStore();
    const again = await third.append('positions', [newTestEvent()], 1n);
    expect(comparePositions(again.position, afterReopen.position)).toBe(1);
    expect(await third.headPosition()).toBe(again.position);
  });

  it('a subscription on a reopened file catches up from a stored checkpoint', async () => {
    const first = await openStore();
    await first.append('checkpoint', [newTestEvent(), newTestEvent()], 'no_stream');
    const checkpoint = await first.headPosition();
    await first.close();

    const second = await openStore();
    const late = newTestEvent('AfterReopen');
    await second.append('checkpoint', [late], 1n);
    const seen: string[] = [];
    const subscription = second.subscribeToAll({ after: checkpoint }, (batch) => {
      seen.push(...batch.map((e) => e.id));
    });
    const deadline = Date.now() + 5000;
    while (seen.length < 1 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 2));
    await subscription.stop();
    expect(seen).toEqual([late.id]);
  });

  describe('a reopened log, read by a catch-up and by a subscriber at its head', () => {
    async function reopenedWith(count: number): Promise<{ store: SqliteEventStore; log: RecordedEvent[] }> {
      const writer = await SqliteEventStore.open({ file, sync });
      for (let i = 0; i < count; i += 100)
        await writer.append(
          `s-${i}`,
          Array.from({ length: 100 }, () => newTestEvent()),
          'no_stream',
        );
      await writer.close();
      // a fresh process: no tail window, no commits of its own, nothing will append
      const store = await SqliteEventStore.open({ file, sync, pollIntervalMs: 60_000 });
      open.push(store);
      return { store, log: await store.readAll() };
    }

    it('an empty read at the head does not mark a window that ends earlier as the end', async () => {
      const { store, log } = await reopenedWith(500);
      expect(asRead(store.readAllSync(START, 200))).toEqual(log.slice(0, 200)); // the window: 1-200
      expect(store.readAllSync(log[499].position, 200)).toEqual([]); // at the head
      expect(asRead(store.readAllSync(log[199].position, 200))).toEqual(log.slice(200, 400));
      expect(asRead(store.readAllSync(log[399].position, 200))).toEqual(log.slice(400));
      expect(store.readAllSync(log[499].position, 200)).toEqual([]);
    });

    it('so the catch-up subscription reaches the head with no append to wake it', async () => {
      const { store, log } = await reopenedWith(500);
      const seen: RecordedEvent[] = [];
      const behind = store.subscribeToAll({ maxBatchSize: 200 }, (batch) => void seen.push(...batch));
      const atHead = store.subscribeToAll({ after: log[499].position, maxBatchSize: 200 }, () => undefined);
      await waitFor(() => seen.length === log.length);
      await Promise.all([behind.stop(), atHead.stop()]);
      expect(asRead(seen)).toEqual(log);
    });
  });

  describe("this process's commits reach its subscriptions", () => {
    const collect = (store: SqliteEventStore, count: number) =>
      Array.from({ length: count }, () => {
        const seen: RecordedEvent[] = [];
        return { seen, subscription: store.subscribeToAll({}, (batch) => void seen.push(...batch)) };
      });

    it('as the file stores them, rows included, without reading them back (retries and refusals add nothing)', async () => {
      // no poll during the test: its reads of the head are not what this test counts
      const store = await SqliteEventStore.open({ file, sync, pollIntervalMs: 60_000 });
      open.push(store);
      await store.append('warm', [newTestEvent()], 'no_stream');
      const subscribers = collect(store, 3);
      await waitFor(() => subscribers.every((s) => s.seen.length === 1));
      const fileReads = jest.spyOn(
        (store as unknown as { statements: { all: Database.Statement } }).statements.all,
        'all',
      );
      const retried = [newTestEvent('Retried', { n: 0 }), newTestEvent('Retried', { n: 1 })];
      await store.append('retried', retried, 'no_stream');
      // batches of several appends at once (the writer thread takes them), some of several events
      const batched = Array.from({ length: 30 }, (_, i) =>
        Array.from({ length: 1 + (i % 3) }, () => newTestEvent('Batched', { i })),
      );
      await Promise.all(batched.map((events, i) => store.append(`s-${i % 7}`, events, 'any')));
      await store.append('retried', retried, 'no_stream'); // an idempotent retry: stores nothing
      await expect(store.append('warm', [newTestEvent()], 'no_stream')).rejects.toThrow(); // refused
      await store.append('last', [newTestEvent('Last', { nested: { list: [1, 'two', null] } })], 'no_stream');
      const stored = 1 + retried.length + batched.flat().length + 1;
      await waitFor(() => subscribers.every((s) => s.seen.length === stored));
      await new Promise((r) => setTimeout(r, 50)); // nothing more arrives
      const reads = fileReads.mock.calls.length;
      fileReads.mockRestore();
      const log = await store.readAll();
      for (const { subscription } of subscribers) await subscription.stop();
      const db = new Database(file, { readonly: true });
      const rows = db.prepare('SELECT * FROM events ORDER BY global_position').all();
      db.close();
      for (const { seen } of subscribers) {
        expect(asRead(seen)).toEqual(log);
        // the read-model apply thread is sent the stored row of each event (rows.ts)
        expect(seen.map((event) => storedRowOf(event))).toEqual(rows);
      }
      expect(reads).toBe(0);
    });

    it("and another process's append between two of them is still delivered in its place", async () => {
      const store = await SqliteEventStore.open({ file, sync, pollIntervalMs: 20 });
      open.push(store);
      const other = await openStore();
      const subscribers = collect(store, 3);
      for (let round = 0; round < 5; round++) {
        await store.append('mine', [newTestEvent('Mine', { round })], 'any');
        await other.append('theirs', [newTestEvent('Theirs', { round })], 'any');
        await store.append('mine', [newTestEvent('MineAgain', { round }), newTestEvent('MineAgain', { round })], 'any');
      }
      const log = await store.readAll();
      expect(log).toHaveLength(20);
      await waitFor(() => subscribers.every((s) => s.seen.length === log.length));
      for (const { seen, subscription } of subscribers) {
        await subscription.stop();
        expect(asRead(seen)).toEqual(log);
      }
    });

    it('a poll that finds the head moved by them alone wakes nobody', async () => {
      const store = await SqliteEventStore.open({ file, sync, pollIntervalMs: 20 });
      open.push(store);
      const [asleep] = collect(store, 1);
      for (let i = 0; i < 5; i++) await store.append('mine', [newTestEvent()], 'any');
      await waitFor(() => asleep.seen.length === 5);
      await new Promise((r) => setTimeout(r, 50));
      const reads = jest.spyOn(store, 'readAllSync');
      await new Promise((r) => setTimeout(r, 200)); // ten polls, the first of them seeing the head moved
      const pollReads = reads.mock.calls.length;
      reads.mockRestore();
      await asleep.subscription.stop();
      expect(pollReads).toBe(0);
      expect(store.growth).toBe(store.commitStats.commits);
    });
  });

  describe('another process appending to the same file (a second store on it)', () => {
    async function openPair(pollIntervalMs: number) {
      const watcher = await SqliteEventStore.open({ file, sync, pollIntervalMs });
      open.push(watcher);
      return { watcher, other: await openStore() };
    }

    const seenBy = (store: SqliteEventStore, count: number) =>
      Array.from({ length: count }, () => {
        const seen: string[] = [];
        return { seen, subscription: store.subscribeToAll({}, (batch) => void seen.push(...batch.map((e) => e.id))) };
      });

    it('every sleeping subscription sees it, with no local commit to wake them', async () => {
      const { watcher, other } = await openPair(50);
      await watcher.append('mine', [newTestEvent()], 'no_stream');
      const subscribers = seenBy(watcher, 5);
      await waitFor(() => subscribers.every((s) => s.seen.length === 1));
      // all of them asleep at the head now: the append below is not this process's commit
      await new Promise((r) => setTimeout(r, 200));
      const theirs = newTestEvent('FromElsewhere');
      await other.append('theirs', [theirs], 'no_stream');
      await waitFor(() => subscribers.every((s) => s.seen.length === 2));
      for (const { seen, subscription } of subscribers) {
        await subscription.stop();
        expect(seen[1]).toBe(theirs.id);
      }
      // and a second one, after a poll already moved past the first
      const again = newTestEvent('Again');
      const late = seenBy(watcher, 1)[0];
      await waitFor(() => late.seen.length === 2);
      await other.append('theirs', [again], 0n);
      await waitFor(() => late.seen.length === 3);
      await late.subscription.stop();
      expect(late.seen[2]).toBe(again.id);
    });

    it('a subscription busy in its handler when a poll found the append still reads it afterwards', async () => {
      const { watcher, other } = await openPair(20);
      await watcher.append('mine', [newTestEvent()], 'no_stream');
      // one asleep at the head, so the polls run; one held in its handler of the local event
      const asleep = seenBy(watcher, 1)[0];
      let release!: () => void;
      const held = new Promise<void>((resolve) => (release = resolve));
      const busy: string[] = [];
      const busySubscription = watcher.subscribeToAll({}, async (batch) => {
        busy.push(...batch.map((e) => e.id));
        if (busy.length === 1) await held;
      });
      await waitFor(() => asleep.seen.length === 1 && busy.length === 1);
      const theirs = newTestEvent('FromElsewhere');
      await other.append('theirs', [theirs], 'no_stream');
      // the poll sees the head move and wakes the sleeper; the busy one was not asleep to be woken
      await waitFor(() => asleep.seen.length === 2);
      // five more polls find the head where it is: none of them reports the append again
      await new Promise((r) => setTimeout(r, 100));
      release();
      await waitFor(() => busy.length === 2);
      await busySubscription.stop();
      await asleep.subscription.stop();
      expect(busy[1]).toBe(theirs.id);
    });

    it('idle subscriptions do not read the log on every poll: one look at the head serves them all', async () => {
      const { watcher } = await openPair(20);
      await watcher.append('mine', [newTestEvent()], 'no_stream');
      const subscribers = seenBy(watcher, 20);
      await waitFor(() => subscribers.every((s) => s.seen.length === 1));
      await new Promise((r) => setTimeout(r, 100));
      const reads = jest.spyOn(watcher, 'readAllSync');
      // 25 poll intervals: twenty subscriptions polling on their own would read 500 times
      await new Promise((r) => setTimeout(r, 500));
      const idleReads = reads.mock.calls.length;
      reads.mockRestore();
      for (const { subscription } of subscribers) await subscription.stop();
      expect(idleReads).toBe(0);
    });
  });
});

async function waitFor(condition: () => boolean): Promise<void> {
  const deadline = Date.now() + patient(2000);
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('timed out waiting for the subscriptions');
    await new Promise((r) => setTimeout(r, 5));
  }
}
