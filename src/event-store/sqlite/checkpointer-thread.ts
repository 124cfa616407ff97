/**
 * The checkpointer thread: copies committed WAL frames back into the database file on a
 * connection of its own, beside the commits, so that the commits' own checkpoints (past 4,000
 * pages, schema.ts) find all but the last round's frames already copied. PASSIVE never waits for a
 * lock: a round that meets a reader or another process's checkpoint copies what it can, and the
 * next round goes on. Past `restartFrames` the commits' checkpoints have kept missing the moment
 * to restart the WAL (another connection committed between a copy and the next commit, as on a
 * starved machine): once a round has copied it all, a RESTART round waits briefly for the write
 * lock and the readers, so the next commit starts the WAL again from its beginning.
 * Messages in: { id, stats: true } and { close: true }; out: { ready }, { id, stats }.
 */
import { parentPort, workerData } from 'node:worker_threads';
import Database from 'better-sqlite3';
import { BUSY_TIMEOUT_MS, configure, type SyncMode } from './schema';

export interface CheckpointStats {
  rounds: number;
  framesCopied: number;
  /** frames in the WAL at the last round (0 once SQLite restarted it) */
  walFrames: number;
  /** RESTART rounds that completed (the WAL had passed restartFrames) */
  restarts: number;
  failures: number;
  lastFailure: string | null;
}

const { file, sync, intervalMs, restartFrames } = workerData as {
  file: string;
  sync: SyncMode;
  intervalMs: number;
  restartFrames: number;
};
const port = parentPort!;
const db = new Database(file);
configure(db, sync, 'thread');
const checkpoint = db.prepare('PRAGMA wal_checkpoint(PASSIVE)');
const restart = db.prepare('PRAGMA wal_checkpoint(RESTART)');
const stats: CheckpointStats = {
  rounds: 0,
  framesCopied: 0,
  walFrames: 0,
  restarts: 0,
  failures: 0,
  lastFailure: null,
};
let backfilled = 0;
/** How long a RESTART round waits for the write lock and the readers before it gives up until the next round. */
const RESTART_WAIT_MS = 100;
/** After a RESTART that met a reader: at most a tenth of the appends' time goes to waiting behind one. */
const RESTART_BACKOFF_MS = 1000;
let restartNotBefore = 0;

function round(): void {
  stats.rounds++;
  try {
    let result = checkpoint.get() as CheckpointResult;
    count(result);
    // all copied, yet past the mark: only the restart's moment was missed, which RESTART makes
    if (result.log > restartFrames && result.checkpointed === result.log && Date.now() >= restartNotBefore) {
      // briefly: RESTART holds the write lock while it waits, and appends wait behind it
      db.pragma(`busy_timeout = ${RESTART_WAIT_MS}`);
      try {
        result = restart.get() as CheckpointResult;
      } finally {
        db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
      }
      count(result);
      if (result.busy === 0) stats.restarts++;
      // a reader stayed on the WAL: give the appends the lock for a while before trying again
      else restartNotBefore = Date.now() + RESTART_BACKOFF_MS;
    }
  } catch (error) {
    // a full disk or an I/O error: the frames stay in the WAL (still durable) until a round succeeds
    stats.failures++;
    stats.lastFailure = error instanceof Error ? error.message : String(error);
  }
}

interface CheckpointResult {
  busy: number;
  /** frames in the WAL */
  log: number;
  /** how many of them are in the database file now */
  checkpointed: number;
}

function count({ log, checkpointed }: CheckpointResult): void {
  // both counters start again from 0 when SQLite restarts the WAL
  if (log < stats.walFrames || checkpointed < backfilled) backfilled = 0;
  if (checkpointed > backfilled) stats.framesCopied += checkpointed - backfilled;
  backfilled = checkpointed;
  stats.walFrames = log;
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
