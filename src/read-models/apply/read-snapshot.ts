import type Database from 'better-sqlite3';
import type { DataSource } from 'typeorm';
import { dialectOf } from '../../platform/database/dialect';
import { rawConnection } from '../../platform/database/raw-connection';

/**
 * One read transaction per event-loop turn on a read model's read-only SQLite connection.
 *
 * A statement outside a transaction is a read transaction of its own: it takes the file's shared
 * lock and a WAL read mark, and gives both back. In the webhook's burst that was most of each
 * delivery's lookup, and sharing one transaction among a turn's lookups cut it to a fraction
 * (bench/README.md, "Read snapshots"). The transaction opens at a turn's first lookup and ends when the turn's
 * I/O callbacks have run (setImmediate), so it never outlives the burst of work that opened it.
 *
 * What a turn reads is then the file as of its first lookup. Whoever learns of a newer commit to
 * the file within the turn must end the snapshot before anyone reads on: the projection runner
 * does, after each applied batch and before it wakes read-your-writes waiters and cache listeners.
 */
interface Snapshot {
  readonly begin: Database.Statement;
  readonly end: Database.Statement;
  open: boolean;
}

const snapshots = new WeakMap<Database.Database, Snapshot>();

/**
 * Reads on `db` from here to the end of this turn share one transaction. Only on a read-only
 * connection: on one that also writes, the open transaction would hold back its commits.
 */
export function holdReadSnapshot(db: Database.Database): void {
  if (!db.readonly) return;
  let snapshot = snapshots.get(db);
  if (!snapshot) {
    snapshot = { begin: db.prepare('BEGIN'), end: db.prepare('COMMIT'), open: false };
    snapshots.set(db, snapshot);
  }
  // inTransaction without our mark: somebody else's transaction, which reads are already inside
  if (snapshot.open || db.inTransaction) return;
  snapshot.begin.run();
  snapshot.open = true;
  setImmediate(() => endSnapshot(db, snapshot));
}

function endSnapshot(db: Database.Database, snapshot: Snapshot): void {
  if (!snapshot.open) return;
  snapshot.open = false;
  // a connection closed meanwhile (a generation replaced, shutdown) ended its transaction itself
  if (db.open && db.inTransaction) snapshot.end.run();
}

/** The next read on this data source sees every commit made so far (a no-op off SQLite). */
export function releaseReadSnapshot(source: DataSource): void {
  if (dialectOf(source) !== 'sqlite' || !source.isInitialized) return;
  const db = rawConnection(source);
  const snapshot = snapshots.get(db);
  if (snapshot) endSnapshot(db, snapshot);
}
