import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { newTestEvent } from '../event-store.contract';
import type { Subscription } from '../event-store.port';
import { START } from '../position';
import { SqliteEventStore } from './sqlite-event-store';

/**
 * The store polls the log's head for other processes' appends (sqlite-event-store.ts, poll). Its
 * own commits on the writer thread are in the file before their answer reaches the event loop: a
 * poll in between must not take them for another process's, which woke every subscription and
 * sent their next reads to the file.
 */
describe('SqliteEventStore polls beside its own commits', () => {
  let dir: string;
  let store: SqliteEventStore;
  let subscription: Subscription | null = null;

  beforeEach(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-poll-'));
    // a poll every millisecond, and no lazy wake: only a poll or a wanted type wakes the sleeper
    store = await SqliteEventStore.open({
      file: path.join(dir, 'events.sqlite'),
      sync: 'normal',
      pollIntervalMs: 1,
      lazyWakeMs: 3_600_000,
    });
  });

  afterEach(async () => {
    await subscription?.stop();
    await store.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('counts no growth but its commits while this process alone writes, and still sees another process append', async () => {
    let batches = 0;
    subscription = store.subscribeToAll({ after: START, wakeFor: (type) => type === 'Wanted' }, async () => {
      batches++;
    });
    // one append at a time: each commit's answer crosses from the writer thread while polls run
    for (let i = 0; i < 600; i++) await store.append(`own-${i % 5}`, [newTestEvent('Other', { i })]);
    expect(store.growth).toBe(store.commitStats.commits);

    // another process's append is still found by a poll, and wakes the sleeper
    const other = await SqliteEventStore.open({ file: path.join(dir, 'events.sqlite'), sync: 'normal' });
    try {
      const before = batches;
      await other.append('foreign', [newTestEvent('Other', { foreign: true })]);
      const deadline = Date.now() + 5_000;
      while (batches === before && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 5));
      expect(batches).toBeGreaterThan(before);
      expect(store.growth).toBe(store.commitStats.commits + 1);
    } finally {
      await other.close();
    }
  });
});
