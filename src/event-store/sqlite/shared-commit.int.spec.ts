import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { BatchWriter, type AppendRequest } from './batch-writer';
import { configure, migrate } from './schema';
import { writeShared } from './shared-commit';
import { ThreadWriter } from './writers';

const id = (n: number) => `00000000-0000-7000-8000-${String(n).padStart(12, '0')}`;
const append = (streamId: string, n: number, expected: AppendRequest['expected'] = 'any'): AppendRequest => ({
  streamId,
  expected,
  events: [{ id: id(n), type: 'T', data: JSON.stringify({ n }), metadata: '{}' }],
});

/** Frames in the file's WAL (while a connection keeps it): each commit writes every page it changed again. */
const walFrames = (db: Database.Database): number =>
  (db.pragma('wal_checkpoint(PASSIVE)') as Array<{ log: number }>)[0].log;

describe('batches that share a commit', () => {
  let dir: string;
  let file: string;

  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-shared-commit-'));
    file = path.join(dir, 'events.sqlite');
    const db = new Database(file);
    configure(db, 'normal');
    migrate(db);
    db.close();
  });

  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('gives each batch its own outcomes, each append checked against what the batches before it wrote', () => {
    const db = new Database(file);
    configure(db, 'normal');
    try {
      const outcomes = writeShared(new BatchWriter(db), [
        [append('s', 1, 'no_stream')],
        [append('s', 2, 0n), append('t', 3, 'stream_exists')],
        [append('s', 4, 'no_stream'), append('s', 1)],
      ]);
      expect(outcomes).toEqual([
        [{ ok: true, revision: 0, globalPosition: 1, repeat: false }],
        [
          { ok: true, revision: 1, globalPosition: 2, repeat: false },
          { ok: false, refusal: 'wrong-revision', actual: null },
        ],
        [
          { ok: false, refusal: 'wrong-revision', actual: 1 },
          // the first batch's append again: a retry, answered as it was
          { ok: true, revision: 0, globalPosition: 1, repeat: true },
        ],
      ]);
    } finally {
      db.close();
    }
  });

  it('on the writer thread, the batches handed over during a commit are written together in the next one', async () => {
    // the first batch waits for the write lock a test connection holds; four more are handed over meanwhile
    const blocker = new Database(file);
    blocker.exec('BEGIN IMMEDIATE');
    const writer = await ThreadWriter.start(file, 'normal', 'never');
    let shared: number;
    try {
      const first = writer.write([append('s-0', 100)]);
      await new Promise((resolve) => setTimeout(resolve, 100));
      const rest = [1, 2, 3, 4].map((n) => writer.write([append(`s-${n}`, 100 + n)]));
      // answered in one message: by a few microtasks after the first settles, so have the others
      // (one message each, they settled turns apart, and whatever the first woke ran in between)
      let settled = 0;
      rest.forEach((write) => void write.then(() => settled++));
      const together = rest[0].then(async () => {
        for (let hop = 0; hop < 10; hop++) await Promise.resolve();
        return settled;
      });
      blocker.exec('COMMIT');
      await expect(first).resolves.toEqual([{ ok: true, revision: 0, globalPosition: 1, repeat: false }]);
      expect((await Promise.all(rest)).map((outcomes) => outcomes[0])).toEqual(
        [2, 3, 4, 5].map((globalPosition) => ({ ok: true, revision: 0, globalPosition, repeat: false })),
      );
      expect(await together).toBe(4);
      shared = walFrames(blocker);
    } finally {
      await writer.close();
      blocker.close();
    }

    // the same five appends, one commit each
    const alone = path.join(dir, 'alone.sqlite');
    const db = new Database(alone);
    configure(db, 'normal', 'never');
    migrate(db);
    db.close();
    const watcher = new Database(alone);
    const reference = await ThreadWriter.start(alone, 'normal', 'never');
    try {
      for (let n = 0; n <= 4; n++) await reference.write([append(`s-${n}`, 100 + n)]);
      const separate = walFrames(watcher);
      // two commits' worth of pages against five
      expect(shared).toBeLessThan(separate * 0.6);
    } finally {
      await reference.close();
      watcher.close();
    }
  });
});
