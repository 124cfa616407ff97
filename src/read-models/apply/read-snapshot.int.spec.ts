import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { newTestEvent } from '../../event-store/event-store.contract';
import type { RecordedEvent } from '../../event-store/event-store.port';
import { holdReadSnapshot } from './read-snapshot';
import { ReadQuery } from '../read-query';
import { appendCounterEvents, counterProjection, INCREMENTED } from '../../../test/fixtures/counter-projection';
import { ReadSide } from '../../../test/fixtures/read-side-harness';

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * The request path's lookups share one read transaction per event-loop turn (read-snapshot.ts):
 * real files, a writer connection committing beside a read-only one, as the apply thread does.
 */
describe('read snapshots of one event-loop turn', () => {
  let dir: string;
  let writer: Database.Database;
  let reader: Database.Database;
  const count = () => (reader.prepare('SELECT count(*) AS n FROM t').get() as { n: number }).n;

  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-snapshot-'));
    writer = new Database(path.join(dir, 'rm.sqlite'));
    writer.pragma('journal_mode = WAL');
    writer.exec('CREATE TABLE t (id INTEGER PRIMARY KEY)');
    reader = new Database(path.join(dir, 'rm.sqlite'), { readonly: true, fileMustExist: true });
  });

  afterEach(() => {
    if (reader.open) reader.close();
    writer.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('reads the file as of the turn’s first lookup, and sees newer commits from the next turn on', async () => {
    holdReadSnapshot(reader);
    expect(count()).toBe(0);
    writer.prepare('INSERT INTO t (id) VALUES (1)').run();
    expect(count()).toBe(0);
    expect(reader.inTransaction).toBe(true);
    await nextTurn();
    expect(reader.inTransaction).toBe(false);
    expect(count()).toBe(1);
  });

  it('holds nothing on a connection that also writes: its commits are not held back', () => {
    holdReadSnapshot(writer);
    expect(writer.inTransaction).toBe(false);
    writer.prepare('INSERT INTO t (id) VALUES (1)').run();
    expect(count()).toBe(1);
  });

  it('leaves no transaction and throws nothing when the connection closes before the turn ends', async () => {
    holdReadSnapshot(reader);
    count();
    reader.close();
    await nextTurn();
    // the writer can checkpoint the whole WAL: no reader holds an old snapshot
    expect(writer.pragma('wal_checkpoint(TRUNCATE)', { simple: false })).toEqual([
      { busy: 0, log: 0, checkpointed: 0 },
    ]);
  });
});

describe('the projection runner and the turn’s snapshot', () => {
  let side: ReadSide;

  beforeEach(() => {
    side = new ReadSide();
  });

  afterEach(async () => {
    await side.cleanup();
  });

  it('ends the snapshot once a batch is applied: its listeners and waiters read the batch', async () => {
    const store = await side.openStore();
    let heldBeforeCommit = 0;
    const projection = counterProjection({
      // A lookup in the turn that applies the batch, before its commit: the turn's snapshot predates it.
      before: (event) => {
        if (event.streamId !== 'probe') return;
        lookup.get('probe');
        heldBeforeCommit++;
      },
    });
    const { readModels } = await side.startReadModels([projection], { store });
    const lookup = new ReadQuery<{ total: number }>(
      () => readModels.source('counters'),
      'SELECT total FROM counter WHERE stream_id = ?',
    );
    const seen: Array<number | undefined> = [];
    readModels.onApplied('counters', (batch: RecordedEvent[]) => {
      if (batch.some((e) => e.streamId === 'probe'))
        seen.push((lookup.get('probe') as { row?: { total: number } }).row?.total);
    });
    await appendCounterEvents(store, { events: 3, streams: 1, prefix: 'other' });
    const { position } = await store.append('probe', [newTestEvent(INCREMENTED, { by: 5 })]);
    await readModels.waitFor(position, ['counters']);
    const afterWait = lookup.get('probe') as { row?: { total: number } };
    expect(heldBeforeCommit).toBe(1);
    expect(seen).toEqual([5]);
    expect(afterWait.row?.total).toBe(5);
  });
});
