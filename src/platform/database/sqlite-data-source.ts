import fs from 'node:fs';
import path from 'node:path';
import { DataSource, type DataSourceOptions, type MigrationInterface } from 'typeorm';
import { READ_MODEL_READER_CACHE_KIB, SOLE_WRITER_CACHE_KIB } from './page-cache';

export interface SqliteDataSourceOptions {
  file: string;
  entities: NonNullable<DataSourceOptions['entities']>;
  migrations?: Array<new () => MigrationInterface>;
  /** Create tables from the entities: only for a fresh read-model generation file. */
  synchronize?: boolean;
  /** Read models and platform records are rebuildable or retried: NORMAL is durable enough in WAL. */
  synchronous?: 'FULL' | 'NORMAL';
  /**
   * A second, read-only connection to a file another connection writes. SQLite isolates
   * connections, not statements on one connection: readers on their own connection never see a
   * writer's uncommitted batch (WAL gives them the last committed snapshot).
   */
  readonly?: boolean;
}

/** A TypeORM data source on one SQLite file through better-sqlite3, tuned for this workload. */
export async function openSqliteDataSource(options: SqliteDataSourceOptions): Promise<DataSource> {
  fs.mkdirSync(path.dirname(path.resolve(options.file)), { recursive: true });
  const source = new DataSource({
    type: 'better-sqlite3',
    database: options.file,
    entities: options.entities,
    migrations: options.migrations ?? [],
    migrationsRun: (options.migrations ?? []).length > 0,
    migrationsTransactionMode: 'each',
    synchronize: options.synchronize ?? false,
    statementCacheSize: 200,
    logging: false,
    readonly: options.readonly ?? false,
    fileMustExist: options.readonly ?? false,
    prepareDatabase: (db: { pragma(sql: string): unknown }) => {
      if (!options.readonly) {
        db.pragma('journal_mode = WAL');
        db.pragma(`synchronous = ${options.synchronous ?? 'NORMAL'}`);
        // a deleted or rewritten row's bytes are zeroed, not left in free space: erasure (contract §24)
        db.pragma('secure_delete = ON');
      }
      db.pragma('busy_timeout = 5000');
      // a read-only connection's cache is cleared by every commit of the file's writer (page-cache.ts)
      db.pragma(`cache_size = -${options.readonly ? READ_MODEL_READER_CACHE_KIB : SOLE_WRITER_CACHE_KIB}`);
    },
  });
  await source.initialize();
  return source;
}
