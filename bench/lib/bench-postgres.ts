import { Client } from 'pg';
import { startPostgresServer, type PostgresServer } from '../../test/support/postgres-server';
import type { BenchContext } from './context';

/**
 * The one PostgreSQL server every `postgres.*` case of a run uses: a throwaway server the bench
 * starts with PostgreSQL's durable defaults (fsync, synchronous_commit and full_page_writes on, as
 * in production: the SQLite cases run at synchronous=FULL too), or BENCH_POSTGRES_URL, an empty
 * database of a server of yours (then fresh databases are created beside it).
 */
export interface BenchPostgres {
  url: string;
  /** A new empty database on the server; its URL. */
  createDatabase(name: string): Promise<string>;
}

export function benchPostgres(ctx: BenchContext): Promise<BenchPostgres> {
  return ctx.shared('postgres-server', async () => {
    const given = process.env.BENCH_POSTGRES_URL;
    if (given) return { url: given, createDatabase: (name) => createDatabaseBeside(given, name) };
    const server: PostgresServer = await startPostgresServer(undefined, 'parley_bench', { durable: true });
    process.once('exit', () => void server.stop());
    ctx.log(`postgres: a throwaway server on port ${server.port} (fsync, synchronous_commit on)`);
    return server;
  });
}

let databases = 0;

/** A fresh database for one run of a case (each run starts from an empty log), dropped by `drop`. */
export async function freshDatabase(ctx: BenchContext, label: string): Promise<{ url: string; drop(): Promise<void> }> {
  const server = await benchPostgres(ctx);
  const name = `bench_${label.replace(/[^a-z0-9_]/g, '_')}_${++databases}`;
  const url = await server.createDatabase(name);
  return {
    url,
    drop: () =>
      withClient(server.url, (c) => c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).then(() => undefined)),
  };
}

/** One short-lived connection. */
export async function withClient<T>(url: string, use: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: url, connectionTimeoutMillis: 10_000 });
  await client.connect();
  try {
    return await use(client);
  } finally {
    await client.end();
  }
}

async function createDatabaseBeside(url: string, name: string): Promise<string> {
  await withClient(url, (c) => c.query(`CREATE DATABASE ${name}`));
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
}
