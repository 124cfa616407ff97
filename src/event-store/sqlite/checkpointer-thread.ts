/**
 * The checkpointer thread: copies committed WAL frames back into the database file on a
 * connection of its own, beside the commits, so that the commits' own checkpoints (past 4,000
 * pages, schema.ts) find all but the last round's frames already copied. PASSIVE never waits for a
 * lock: a round that meets a reader or another process's checkpoint copies what it can, and the
 * next round goes on.
 * Messages in: { id, stats: true } and { close: true }; out: { ready }, { id, stats }.
 */
import { parentPort, workerData } from 'node:worker_threads';
import Database from 'better-sqlite3';
import { configure, type SyncMode } from './schema';

export interface CheckpointStats {
  rounds: number;
  framesCopied: number;
  /** frames in the WAL at the last round (0 once SQLite restarted it) */
  walFrames: number;
  failures: number;
  lastFailure: string | null;
}

const { file, sync, intervalMs } = workerData as { file: string; sync: SyncMode; intervalMs: number };
const port = parentPort!;
const db = new Database(file);
configure(db, sync, 'thread');
const checkpoint = db.prepare('PRAGMA wal_checkpoint(PASSIVE)');
const stats: CheckpointStats = { rounds: 0, framesCopied: 0, walFrames: 0, failures: 0, lastFailure: null };
let backfilled = 0;

function round(): void {
  stats.rounds++;
  try {
    // log: frames in the WAL; checkpointed: how many of them are in the database file now
    const { log, checkpointed } = checkpoint.get() as { busy: number; log: number; checkpointed: number };
    // both counters start again from 0 when SQLite restarts the WAL
    if (log < stats.walFrames || checkpointed < backfilled) backfilled = 0;
    if (checkpointed > backfilled) stats.framesCopied += checkpointed - backfilled;
    backfilled = checkpointed;
    stats.walFrames = log;
  } catch (error) {
    // a full disk or an I/O error: the frames stay in the WAL (still durable) until a round succeeds
    stats.failures++;
    stats.lastFailure = error instanceof Error ? error.message : String(error);
  }
}

const timer = setInterval(round, intervalMs);
port.on('message', (message: { id: number; stats: true } | { close: true }) => {
  if ('close' in message) {
    clearInterval(timer);
    db.close();
    port.close();
    return;
  }
  port.postMessage({ id: message.id, stats });
});
port.postMessage({ ready: true });
