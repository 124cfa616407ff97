import { createHash } from 'node:crypto';
import path from 'node:path';
import Database from 'better-sqlite3';
import { Client } from 'pg';
import { startPostgresServer, type PostgresServer } from '../support/postgres-server';

/**
 * Where the suite runs its apps' read models and platform records: SQLite files under each app's
 * DATA_DIR (the default), or PostgreSQL when the test run has READ_MODEL_DB=postgres
 * (`npm run test:postgres`, CI's second pass). Then every app gets a database of its own on one
 * shared server: the one scripts/with-postgres.js started (PARLEY_TEST_POSTGRES_URL), or else one
 * started here for this test file.
 */
export function suiteOnPostgres(): boolean {
  return process.env.READ_MODEL_DB === 'postgres';
}

/** Admin URL of the shared server (any database on it); the server is started on first use when the run has none. */
let own: Promise<PostgresServer> | null = null;
async function serverUrl(): Promise<string> {
  const shared = process.env.PARLEY_TEST_POSTGRES_URL;
  if (shared) return shared;
  own ??= startPostgresServer();
  return (await own).url;
}

// A test file's own server stops with the file: a jest process runs many files, one after another.
if (typeof afterAll === 'function') {
  afterAll(async () => {
    const server = own;
    own = null;
    await (await server)?.stop();
  });
}

function withDatabase(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}

/** The database of the app whose DATA_DIR is `dataDir`: named after it, so a restarted app (same dir) finds its data again. */
function databaseName(dataDir: string): string {
  return `app_${createHash('sha256').update(dataDir).digest('hex').slice(0, 24)}`;
}

/**
 * The env that puts the app of `dataDir` on PostgreSQL: its database created when missing. Empty
 * on a SQLite run, or when the test chose its database itself (it passed READ_MODEL_DB).
 */
export async function appDatabaseEnv(
  dataDir: string,
  env: Record<string, string | undefined>,
): Promise<Record<string, string>> {
  if (!suiteOnPostgres() || env.READ_MODEL_DB !== undefined) return {};
  const admin = await serverUrl();
  const name = databaseName(dataDir);
  const client = new Client({ connectionString: admin });
  await client.connect();
  try {
    await client.query(`CREATE DATABASE ${name}`);
  } catch (error) {
    // 42P04: it exists (the app of this dir ran before): its data is what a restart must find
    if ((error as { code?: string }).code !== '42P04') throw error;
  } finally {
    await client.end();
  }
  return { READ_MODEL_DB: 'postgres', DATABASE_URL: withDatabase(admin, name) };
}

/** Drops the app's database (its connections are cut); nothing on a SQLite run. */
export async function dropAppDatabase(dataDir: string, env: Record<string, string | undefined>): Promise<void> {
  if (!suiteOnPostgres() || env.READ_MODEL_DB !== undefined) return;
  const client = new Client({ connectionString: await serverUrl() });
  await client.connect();
  try {
    await client.query(`DROP DATABASE IF EXISTS ${databaseName(dataDir)} WITH (FORCE)`);
  } finally {
    await client.end();
  }
}

/**
 * One statement (no parameters) on the platform database of the app of `dataDir`, behind its back,
 * wherever the run keeps it: DATA_DIR/platform.sqlite, or the app's PostgreSQL database. The rows
 * it returns, and how many it changed.
 */
export async function onPlatform<Row = Record<string, unknown>>(
  dataDir: string,
  sql: string,
): Promise<{ rows: Row[]; changes: number }> {
  if (!suiteOnPostgres()) {
    const db = new Database(path.join(dataDir, 'platform.sqlite'));
    try {
      const statement = db.prepare(sql);
      return statement.reader
        ? { rows: statement.all() as Row[], changes: 0 }
        : { rows: [], changes: statement.run().changes };
    } finally {
      db.close();
    }
  }
  const { DATABASE_URL } = await appDatabaseEnv(dataDir, {});
  const client = new Client({ connectionString: DATABASE_URL });
  await client.connect();
  try {
    const result = await client.query(sql);
    return { rows: result.rows as Row[], changes: result.rowCount ?? 0 };
  } finally {
    await client.end();
  }
}
