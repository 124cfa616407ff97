import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { DataSource } from 'typeorm';
import type { PlatformDialect } from '../../src/platform/database/dialect';
import { openAppDatabase } from '../../src/app.database';
import { describeOnPostgres } from './postgres-server';

/** One empty platform database (a DATA_DIR, and on PostgreSQL a database of its own). */
export interface PlatformDatabase {
  dialect: PlatformDialect;
  dataDir: string;
  /** A new connection (pool) to this database each call, as another process would open it; migrations run. */
  open(): Promise<DataSource>;
}

export interface PlatformDatabases {
  dialect: PlatformDialect;
  /** A new empty database; every connection opened on it is closed after the test. */
  fresh(): Promise<PlatformDatabase>;
}

/**
 * Declares `suite` twice: on the SQLite platform file, and on PostgreSQL from one throwaway server
 * for the whole file (postgres-server.ts), each test with a database of its own. Without the
 * PostgreSQL binaries the second is skipped loudly (and fails under CI=true).
 */
export function describeEachPlatformDatabase(title: string, suite: (databases: PlatformDatabases) => void): void {
  describe(`${title} (SQLite)`, () => withDatabases('sqlite', async () => null, suite));
  describeOnPostgres(`${title} (PostgreSQL)`, (server) => {
    let next = 0;
    withDatabases('postgres', async () => server().createDatabase(`db_${++next}`), suite);
  });
}

function withDatabases(
  dialect: PlatformDialect,
  createDatabase: () => Promise<string | null>,
  suite: (databases: PlatformDatabases) => void,
): void {
  const opened: DataSource[] = [];
  const dirs: string[] = [];
  suite({
    dialect,
    fresh: async () => {
      const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-platform-'));
      dirs.push(dataDir);
      const url = await createDatabase();
      return {
        dialect,
        dataDir,
        open: async () => {
          const source = await openAppDatabase(dataDir, url);
          opened.push(source);
          return source;
        },
      };
    },
  });
  // Declared after the suite's own hooks, so it runs after them (Jest runs a block's afterEach hooks
  // in declaration order): the suite stops what works on its connections before they close.
  afterEach(async () => {
    for (const source of opened.splice(0).reverse()) if (source.isInitialized) await source.destroy();
    for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
  });
}
