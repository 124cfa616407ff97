import Database from 'better-sqlite3';
import { Client } from 'pg';
import { PostgresEventStore } from '../../src/event-store/postgres/postgres-event-store';
import { startPostgresServer, type PostgresServer } from '../../test/support/postgres-server';
import type { BenchContext } from './context';
import { secondsSince } from './measure';

/**
 * The PostgreSQL server of a bench group: a throwaway server (test/support/postgres-server.ts),
 * or BENCH_POSTGRES_URL, a database of a server of yours whose user may create databases. Shared
 * under the key cases/postgres.ts uses, so a group holding both starts one server. Needs no
 * `--backend postgres`: the cases that call it start it themselves.
 */
export function benchPostgres(ctx: BenchContext): Promise<{ url: string }> {
  return ctx.shared('postgres-server', async (): Promise<{ url: string; stop(): Promise<void> }> => {
    const given = process.env.BENCH_POSTGRES_URL;
    if (given) return { url: given, stop: async () => undefined };
    const server: PostgresServer = await startPostgresServer(undefined, 'parley_bench');
    process.once('exit', () => void server.stop());
    return server;
  });
}

/** A new, empty database beside the server's first one (dropped first if a run left it); its URL. */
export async function freshDatabase(serverUrl: string, name: string): Promise<string> {
  const admin = new Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    await admin.query(`DROP DATABASE IF EXISTS ${name}`);
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/** Rows per transaction of the copy: each becomes one transaction id of the PostgreSQL log. */
const COPY_CHUNK = 10_000;

interface SqliteEventRow {
  stream_id: string;
  revision: number;
  event_id: string;
  type: string;
  data: string;
  metadata: string;
}

/**
 * The events of a SQLite log, in its order, copied into the log of a new database `name`
 * (schema.ts's table, created by PostgresEventStore.open): the same events, on the other store.
 * Raw inserts of 10,000 rows per transaction, as filled-log.ts fills the SQLite one: only the
 * content matters. Memoised per name; returns the database's URL.
 */
export function postgresCopyOfLog(
  ctx: BenchContext,
  sqliteFile: string,
  name: string,
): Promise<{ url: string; events: number }> {
  return ctx.shared(`postgres-log:${name}`, async () => {
    const server = await benchPostgres(ctx);
    const url = await freshDatabase(server.url, name);
    await (await PostgresEventStore.open({ url })).close();
    const start = process.hrtime.bigint();
    const source = new Database(sqliteFile, { readonly: true });
    const client = new Client({ connectionString: url });
    await client.connect();
    let events = 0;
    try {
      const scan = source.prepare<[], SqliteEventRow>(
        'SELECT stream_id, revision, event_id, type, data, metadata FROM events ORDER BY global_position',
      );
      let chunk: SqliteEventRow[] = [];
      const flush = async () => {
        if (chunk.length === 0) return;
        const column = <K extends keyof SqliteEventRow>(key: K) => chunk.map((row) => row[key]);
        await client.query(
          `INSERT INTO parley_events (stream_id, revision, event_id, type, data, metadata)
           SELECT s, r, i, t, d, m
             FROM unnest($1::text[], $2::bigint[], $3::text[], $4::text[], $5::text[], $6::text[])
                  WITH ORDINALITY AS u(s, r, i, t, d, m, n)
            ORDER BY n`,
          [
            column('stream_id'),
            column('revision'),
            column('event_id'),
            column('type'),
            column('data'),
            column('metadata'),
          ],
        );
        events += chunk.length;
        chunk = [];
      };
      for (const row of scan.iterate()) {
        chunk.push(row);
        if (chunk.length === COPY_CHUNK) await flush();
      }
      await flush();
      await client.query('VACUUM ANALYZE parley_events');
    } finally {
      source.close();
      await client.end();
    }
    ctx.log(
      `copied ${events.toLocaleString('en-US')} events into PostgreSQL (${name}) in ${secondsSince(start).toFixed(1)} s`,
    );
    return { url, events };
  });
}
