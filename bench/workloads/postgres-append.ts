import { Client } from 'pg';
import { PostgresEventStore } from '../../src/event-store/postgres/postgres-event-store';
import { migrate } from '../../src/event-store/postgres/schema';
import { revisionOf, streamOf, turnEvents } from '../fixtures/turn-event';
import type { Sample } from '../lib/alternate';
import { freshDatabase, withClient } from '../lib/bench-postgres';
import type { BenchContext } from '../lib/context';
import { perSecond } from '../lib/measure';
import { driveAppends } from './store-append';

/** The raw ceiling's statement: `perTx` rows in one INSERT, its own transaction (autocommit). */
const INSERT_ROWS = `INSERT INTO parley_events (stream_id, revision, event_id, type, data, metadata)
  SELECT * FROM unnest($1::text[], $2::bigint[], $3::text[], $4::text[], $5::text[], $6::text[])`;

/** WAL written on the server between two reads of it (the database's alone when nothing else runs). */
async function walBytesDuring<T>(url: string, work: () => Promise<T>): Promise<{ result: T; walBytes: number }> {
  const lsn = () =>
    withClient(
      url,
      async (c) => (await c.query<{ lsn: string }>('SELECT pg_current_wal_lsn()::text AS lsn')).rows[0].lsn,
    );
  const before = await lsn();
  const result = await work();
  const after = await lsn();
  const walBytes = await withClient(url, async (c) =>
    Number((await c.query<{ d: string }>('SELECT pg_wal_lsn_diff($1, $2)::text AS d', [after, before])).rows[0].d),
  );
  return { result, walBytes };
}

/**
 * PostgresEventStore appends by `inFlight` callers (workloads/store-append.ts's shape), into a
 * fresh database each run; also the WAL each event cost.
 */
export async function postgresStoreAppends(ctx: BenchContext, count: number, inFlight: number): Promise<Sample> {
  const events = turnEvents(count);
  const db = await freshDatabase(ctx, 'store_append');
  try {
    const store = await PostgresEventStore.open({ url: db.url });
    try {
      const { result, walBytes } = await walBytesDuring(db.url, () => driveAppends(store, events, inFlight));
      return { value: result.value, detail: { ...result.detail, walBytesPerEvent: Math.round(walBytes / count) } };
    } finally {
      await store.close();
    }
  } finally {
    await db.drop();
  }
}

/**
 * What PostgreSQL itself allows through `pg` with no store code around it: the store's own table
 * and indexes (its migrate()), the same prebuilt events serialised inside the timing, `perTx` rows
 * per INSERT statement and transaction, one connection, the statement's parameters as arrays.
 */
export async function postgresRawAppend(ctx: BenchContext, count: number, perTx: number): Promise<Sample> {
  const events = turnEvents(count);
  const db = await freshDatabase(ctx, 'raw_append');
  const client = new Client({ connectionString: db.url });
  await client.connect();
  try {
    await migrate(client);
    const { result: value, walBytes } = await walBytesDuring(db.url, () =>
      perSecond(count, async () => {
        for (let from = 0; from < count; from += perTx) {
          const to = Math.min(count, from + perTx);
          const columns: string[][] = [[], [], [], [], [], []];
          for (let n = from; n < to; n++) {
            const e = events[n];
            columns[0].push(streamOf(n));
            columns[1].push(String(revisionOf(n)));
            columns[2].push(e.id);
            columns[3].push(e.type);
            columns[4].push(JSON.stringify(e.data));
            columns[5].push(JSON.stringify(e.metadata));
          }
          await client.query(INSERT_ROWS, columns);
        }
      }),
    );
    return { value, detail: { walBytesPerEvent: Math.round(walBytes / count) } };
  } finally {
    await client.end();
    await db.drop();
  }
}
