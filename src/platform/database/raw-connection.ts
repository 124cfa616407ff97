import type Database from 'better-sqlite3';
import type { DataSource } from 'typeorm';

/** The better-sqlite3 connection under a TypeORM data source. */
export function rawConnection(source: DataSource): Database.Database {
  return (source.driver as unknown as { databaseConnection: Database.Database }).databaseConnection;
}

/**
 * A transaction that runs synchronously on the raw connection. TypeORM's SQLite driver shares one
 * connection between all callers, so two async `transaction()` calls would nest (and any query
 * issued meanwhile would land inside someone else's transaction). A synchronous transaction cannot
 * interleave with anything: use it for every multi-statement write on a shared data source.
 */
export function syncTransaction<T>(source: DataSource, work: (db: Database.Database) => T): T {
  const db = rawConnection(source);
  return db.transaction(() => work(db)).immediate();
}
