import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { Checkpointer, type CheckpointStats } from './checkpointer';
import { configure } from './schema';

/**
 * The checkpointer thread's RESTART round: a WAL past its mark that a round copied whole but that
 * no commit restarted (a reader was on it whenever a commit began, as on a starved machine) is
 * made to restart at the next commit, once the readers let go.
 */
describe('the checkpointer restarts a WAL that was copied whole but kept growing', () => {
  let dir: string;
  let file: string;
  let db: Database.Database;
  let checkpointer: Checkpointer | undefined;

  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-restart-'));
    file = path.join(dir, 'log.sqlite');
    db = new Database(file);
    configure(db, 'normal', 'never');
    db.exec('CREATE TABLE pages (body TEXT)');
  });

  afterEach(async () => {
    await checkpointer?.close();
    db.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const writePages = (n: number) => {
    const insert = db.prepare('INSERT INTO pages (body) VALUES (?)');
    for (let i = 0; i < n; i++) insert.run('x'.repeat(4000));
  };

  async function statsWhen(check: (s: CheckpointStats) => boolean): Promise<CheckpointStats> {
    const deadline = Date.now() + 10_000;
    for (;;) {
      const stats = await checkpointer!.stats();
      if (check(stats)) return stats;
      if (Date.now() > deadline) throw new Error(`checkpointer never got there: ${JSON.stringify(stats)}`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  it('waits out a reader on the WAL, then the next commit starts the WAL from its beginning', async () => {
    writePages(200);
    // a reader on the latest snapshot: a round may copy every frame, but no commit can restart the WAL
    const reader = new Database(file, { readonly: true });
    reader.exec('BEGIN');
    reader.prepare('SELECT count(*) AS n FROM pages').get();
    checkpointer = await Checkpointer.start(file, 'normal', 20, 100);
    const copied = await statsWhen((s) => s.walFrames > 100 && s.framesCopied >= s.walFrames);
    expect(copied.restarts).toBe(0);
    writePages(1);
    reader.exec('COMMIT');
    reader.close();
    const restarted = await statsWhen((s) => s.restarts >= 1);
    expect(restarted.failures).toBe(0);
    writePages(1);
    // the commit after the restart wrote at the WAL's beginning: a round sees a handful of frames
    await statsWhen((s) => s.walFrames < 10);
    expect(db.prepare('SELECT count(*) AS n FROM pages').get()).toEqual({ n: 202 });
  });

  it('below its mark the WAL is left to the commits', async () => {
    writePages(10);
    checkpointer = await Checkpointer.start(file, 'normal', 20, 100);
    const stats = await statsWhen((s) => s.rounds >= 5 && s.framesCopied >= s.walFrames && s.walFrames > 0);
    expect(stats.restarts).toBe(0);
  });
});
