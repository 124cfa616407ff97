import type Database from 'better-sqlite3';
import { EVENT_LOG_CACHE_KIB } from '../../platform/database/page-cache';

/**
 * One table is the whole log. global_position is AUTOINCREMENT so a position is never reused, even
 * after the newest rows are deleted by hand; (stream_id, revision) is the stream index and the
 * guarantee that two writers can never both take the same revision; event_id makes retries safe.
 */
export function migrate(db: Database.Database): void {
  db.exec(`
    CREATE TABLE IF NOT EXISTS events (
      global_position INTEGER PRIMARY KEY AUTOINCREMENT,
      stream_id       TEXT    NOT NULL,
      revision        INTEGER NOT NULL,
      event_id        TEXT    NOT NULL,
      type            TEXT    NOT NULL,
      data            TEXT    NOT NULL,
      metadata        TEXT    NOT NULL,
      UNIQUE (stream_id, revision)
    );
    CREATE UNIQUE INDEX IF NOT EXISTS events_event_id ON events (event_id);
  `);
}

export type SyncMode = 'full' | 'normal';

/**
 * `auto`: SQLite checkpoints the WAL inside whichever commit takes it past 1,000 pages, so that
 * commit waits for the copy and its fsyncs (measured here: the slow tail of the writer's batches).
 * `thread`: the checkpointer thread (checkpointer.ts) copies the WAL beside the commits, and a
 * commit checkpoints only past 4,000 pages, finding all but the last round's frames copied. That
 * commit's checkpoint still matters: SQLite can only restart a WAL that a checkpoint copied whole
 * before the next commit began, which a thread beside a steady stream of commits never sees (the
 * WAL grew 154 MiB in 15 s without it); and if the thread dies, it alone bounds the WAL.
 * `never`: the event loop's own connection beside a writer thread. Its commit that took the WAL
 * past the threshold would copy the frames since the last round and fsync the database file with
 * the event loop blocked: the longest pauses of the loop under load (bench/README.md). The thread's
 * commits checkpoint instead; AdaptiveWriter sends it every so many appends even when all are lone.
 */
export type CheckpointMode = 'auto' | 'thread' | 'never';

const CHECKPOINT_PAGES: Record<CheckpointMode, number> = { auto: 1000, thread: 4000, never: 0 };

export const BUSY_TIMEOUT_MS = 5000;

export function configure(db: Database.Database, sync: SyncMode, checkpoints: CheckpointMode = 'auto'): void {
  db.pragma('journal_mode = WAL');
  // FULL: the WAL is synced at every commit, so an acknowledged append survives power loss.
  // NORMAL: synced at checkpoints only; a power cut may lose the last commits (never corrupts).
  db.pragma(`synchronous = ${sync === 'full' ? 'FULL' : 'NORMAL'}`);
  // Other processes (projections CLI, a second API process) share the file: wait for the lock.
  db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
  // small: the writer thread and this process's inline appends both commit to the file
  db.pragma(`cache_size = -${EVENT_LOG_CACHE_KIB}`);
  db.pragma('temp_store = MEMORY');
  db.pragma(`wal_autocheckpoint = ${CHECKPOINT_PAGES[checkpoints]}`);
}
