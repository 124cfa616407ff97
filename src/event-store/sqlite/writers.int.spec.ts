import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import type { AppendRequest } from './batch-writer';
import { configure, migrate } from './schema';
import { SqliteEventStore } from './sqlite-event-store';
import { ThreadWriter } from './writers';
import { newTestEvent } from '../event-store.contract';
import { keptThreads, yieldHelperThreads } from '../../platform/threads/helper-threads';

function request(streamId: string, id: string): AppendRequest {
  return { streamId, expected: 'any', events: [{ id, type: 'T', data: '{}', metadata: '{}' }] };
}

describe('ThreadWriter (the event store writer thread)', () => {
  let dir: string;
  let file: string;

  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-writer-'));
    file = path.join(dir, 'events.sqlite');
    const db = new Database(file);
    configure(db, 'normal');
    migrate(db);
    db.close();
  });

  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('writes a batch on its own connection and answers one outcome per append', async () => {
    const writer = await ThreadWriter.start(file, 'full');
    try {
      const outcomes = await writer.write([
        request('s-1', '00000000-0000-7000-8000-000000000001'),
        request('s-1', '00000000-0000-7000-8000-000000000001'),
      ]);
      // the second is a retry of the first (same id): it answers the same revision, storing nothing
      expect(outcomes).toEqual([
        { ok: true, revision: 0, globalPosition: 1, repeat: false },
        { ok: true, revision: 0, globalPosition: 1, repeat: true },
      ]);
      const refused = await writer.write([
        { ...request('s-1', '00000000-0000-7000-8000-000000000002'), expected: 'no_stream' },
      ]);
      expect(refused).toEqual([{ ok: false, refusal: 'wrong-revision', actual: 0 }]);
    } finally {
      await writer.close();
    }
    const db = new Database(file, { readonly: true });
    expect(db.prepare('SELECT count(*) AS n FROM events').get()).toEqual({ n: 1 });
    db.close();
  });

  it("keeps the event loop's priority while helper threads yield, until it exits", async () => {
    if (!fs.existsSync('/proc/thread-self'))
      return void process.stderr.write('no /proc/thread-self: thread priorities are not tested here\n');
    const before = new Set(keptThreads());
    const writer = await ThreadWriter.start(file, 'normal');
    const added = [...keptThreads()].filter((id) => !before.has(id));
    expect(added).toHaveLength(1);
    const [id] = added;
    expect(fs.existsSync(`/proc/self/task/${id}`)).toBe(true);
    yieldHelperThreads(2);
    expect(os.getPriority(id)).toBe(os.getPriority(process.pid));
    await writer.close();
    expect(keptThreads().has(id)).toBe(false);
  });

  it('fails writes in flight and later ones when the thread dies, instead of hanging', async () => {
    const writer = await ThreadWriter.start(file, 'normal');
    const calls = (writer as unknown as { calls: { terminate(): Promise<void> } }).calls;
    const inFlight = writer.write([request('s-2', '00000000-0000-7000-8000-000000000003')]);
    await calls.terminate();
    // the write may have committed before the thread stopped; either way its promise settles
    await inFlight.then(
      (outcomes) => expect(outcomes).toHaveLength(1),
      (error: Error) => expect(error.message).toMatch(/exited/),
    );
    await expect(writer.write([request('s-2', '00000000-0000-7000-8000-000000000004')])).rejects.toThrow(
      /writer thread exited/,
    );
    await writer.close();
  });

  it('the store writes every append accepted before close, then refuses new ones', async () => {
    const store = await SqliteEventStore.open({ file, sync: 'full' });
    const accepted = Array.from({ length: 50 }, (_, i) => store.append(`s-${i % 5}`, [newTestEvent('T', { i })]));
    const closing = store.close();
    await expect(store.append('s-late', [newTestEvent('T', {})])).rejects.toThrow(/closed/i);
    await Promise.all(accepted);
    await closing;
    const reopened = await SqliteEventStore.open({ file, sync: 'full' });
    expect(await reopened.readAll()).toHaveLength(50);
    await reopened.close();
  });
});
