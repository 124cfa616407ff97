import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { newTestEvent } from '../event-store.contract';
import { SqliteEventStore } from './sqlite-event-store';

/**
 * ~`mib` MiB of 4 KiB events from 16 writers that append again as soon as their last append is
 * stored: a steady stream of commits, the load under which a WAL is never idle enough to restart.
 * Returns the largest the WAL file grew to.
 */
async function appendMiB(file: string, store: SqliteEventStore, mib: number): Promise<number> {
  const payload = 'x'.repeat(4096);
  let largest = 0;
  const perWriter = (mib * 256) / 16;
  await Promise.all(
    Array.from({ length: 16 }, async (_, writer) => {
      for (let i = 0; i < perWriter; i++) {
        await store.append(`s-${writer}`, [newTestEvent('Big', { payload })]);
        if (i % 16 === 0) largest = Math.max(largest, walBytes(file));
      }
    }),
  );
  return largest;
}

const walBytes = (file: string) => fs.statSync(`${file}-wal`).size;
const MIB = 1024 * 1024;

describe('the event log checkpointer thread', () => {
  let dir: string;
  let file: string;
  const stores: SqliteEventStore[] = [];

  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-checkpoint-'));
    file = path.join(dir, 'events.sqlite');
  });

  afterEach(async () => {
    for (const store of stores.splice(0)) await store.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  async function open(writer?: 'inline', checkpointerAfterCommits = 0): Promise<SqliteEventStore> {
    const store = await SqliteEventStore.open({ file, sync: 'normal', writer, checkpointerAfterCommits });
    stores.push(store);
    return store;
  }

  // The thread does the copying; the writers' own checkpoints (past 4,000 pages, 16 MiB) find all
  // but the last round's frames copied, and let SQLite restart the WAL.
  it('copies the WAL beside the writers under a steady stream of commits, and the WAL stays bounded', async () => {
    const store = await open();
    const largest = await appendMiB(file, store, 48);
    const stats = (await store.checkpointStats())!;
    expect(stats.failures).toBe(0);
    // 48 MiB is 12,288 pages of events: a good share of them copied by the thread, not in a
    // commit. How large a share depends on how fast the writers fill the WAL between its 100 ms
    // rounds: more than half on a slow day here, 4,351-4,575 frames on a fast one.
    expect(stats.framesCopied).toBeGreaterThan(1500);
    // bounded: twice the writers' 16 MiB checkpoint mark at most, well under the 48 MiB written (when
    // the machine is loaded, a round of the thread may hold the WAL a while past the mark)
    expect(largest).toBeLessThan(32 * MIB);
    // what was copied is the log: a reader of the database file alone sees every event
    await store.close();
    stores.length = 0;
    const db = new Database(file, { readonly: true });
    expect(db.prepare('SELECT count(*) AS n FROM events').get()).toEqual({ n: 48 * 256 });
    db.close();
  });

  it('without the thread (it died), the commits checkpoint as before and the WAL stays bounded', async () => {
    const store = await open();
    await store.append('s-first', [newTestEvent()]);
    const checkpointer = await (
      store as unknown as { checkpointer: Promise<{ calls: { terminate(): Promise<void> } }> }
    ).checkpointer;
    await checkpointer.calls.terminate();
    expect(await appendMiB(file, store, 48)).toBeLessThan(24 * MIB);
    await expect(store.checkpointStats()).rejects.toThrow(/exited/);
    expect(await store.readAll({ maxCount: 1 })).toHaveLength(1);
  });

  // Every append alone and awaited: all but every 64th is written on the event loop's connection,
  // which never checkpoints; the thread's commits do, so SQLite still restarts the WAL.
  it('a lone sequential writer: the WAL stays bounded though the event loop never checkpoints', async () => {
    const store = await open();
    const payload = 'x'.repeat(4096);
    let largest = 0;
    for (let i = 0; i < 32 * 256; i++) {
      await store.append('s-lone', [newTestEvent('Big', { payload })]);
      if (i % 64 === 0) largest = Math.max(largest, walBytes(file));
    }
    // bounded: twice the writers' 16 MiB checkpoint mark at most, well under the 48 MiB written (when
    // the machine is loaded, a round of the thread may hold the WAL a while past the mark)
    expect(largest).toBeLessThan(32 * MIB);
    expect(await store.readAll({ maxCount: 1 })).toHaveLength(1);
  });

  it('the inline writer leaves the checkpoints to SQLite, with no thread', async () => {
    const store = await open('inline');
    expect(await store.checkpointStats()).toBeNull();
    expect(await appendMiB(file, store, 16)).toBeLessThan(12 * MIB);
  });

  it('starts only once the log sees steady writes: a store opened for a few appends never pays for the thread', async () => {
    const store = await open(undefined, 50);
    for (let i = 0; i < 49; i++) await store.append('s-few', [newTestEvent()]);
    expect(await store.checkpointStats()).toBeNull();
    await store.append('s-few', [newTestEvent()]);
    expect(await store.checkpointStats()).toMatchObject({ failures: 0 });
  });
});
