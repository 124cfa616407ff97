import { Client } from 'pg';
import { PostgresEventStore } from '../../src/event-store/postgres/postgres-event-store';
import { revisionOf, streamOf, turnEvent } from '../fixtures/turn-event';
import { freshDatabase } from '../lib/bench-postgres';
import type { BenchContext } from '../lib/context';
import { perSecond, secondsSince } from '../lib/measure';
import { PAGE } from './full-log-read';

export interface PostgresLog {
  url: string;
  events: number;
}

const FILL_CHUNK = 5_000;

/**
 * The log the postgres.* read cases share: `sizes.logEvents` turn events over 1,000 streams in a
 * database of its own. The store creates the table (its migrate()), then raw INSERTs of
 * FILL_CHUNK rows each fill it (each its own transaction, so positions order as the store's
 * would); VACUUM ANALYZE then leaves every run the same table (hint bits set, statistics taken).
 */
export function postgresLog(ctx: BenchContext): Promise<PostgresLog> {
  return ctx.shared('postgres-log', async () => {
    const events = ctx.sizes.logEvents;
    const start = process.hrtime.bigint();
    const db = await freshDatabase(ctx, 'log');
    await (await PostgresEventStore.open({ url: db.url })).close();
    const client = new Client({ connectionString: db.url });
    await client.connect();
    try {
      for (let from = 0; from < events; from += FILL_CHUNK) {
        const columns: string[][] = [[], [], [], [], [], []];
        for (let n = from; n < Math.min(events, from + FILL_CHUNK); n++) {
          const e = turnEvent(n);
          columns[0].push(streamOf(n));
          columns[1].push(String(revisionOf(n)));
          columns[2].push(e.id);
          columns[3].push(e.type);
          columns[4].push(JSON.stringify(e.data));
          columns[5].push(JSON.stringify(e.metadata));
        }
        await client.query(
          `INSERT INTO parley_events (stream_id, revision, event_id, type, data, metadata)
           SELECT * FROM unnest($1::text[], $2::bigint[], $3::text[], $4::text[], $5::text[], $6::text[])`,
          columns,
        );
      }
      await client.query('VACUUM ANALYZE parley_events');
    } finally {
      await client.end();
    }
    ctx.log(`postgres: filled a ${events.toLocaleString('en-US')}-event log in ${secondsSince(start).toFixed(1)} s`);
    return { url: db.url, events };
  });
}

/**
 * The floor of any reader of the PostgreSQL log: one ordered SELECT of every column, in log order
 * (transaction_id, global_position, the store's index), fetched PAGE rows at a time from a cursor,
 * both JSON columns parsed, nothing else.
 */
export async function rawPostgresScan(log: PostgresLog): Promise<number> {
  const client = new Client({ connectionString: log.url });
  await client.connect();
  try {
    let rows = 0;
    let sink = 0;
    const rate = await perSecond(log.events, async () => {
      await client.query('BEGIN READ ONLY');
      await client.query(
        'DECLARE scan NO SCROLL CURSOR FOR SELECT * FROM parley_events ORDER BY transaction_id, global_position',
      );
      // Bounded: one page more than the log can fill.
      for (let page = 0; page <= Math.ceil(log.events / PAGE); page++) {
        const { rows: batch } = await client.query<{ data: string; metadata: string }>(`FETCH ${PAGE} FROM scan`);
        for (const row of batch) {
          sink +=
            (JSON.parse(row.data) as { turnIndex: number }).turnIndex +
            (JSON.parse(row.metadata) as { schemaVersion: number }).schemaVersion;
        }
        rows += batch.length;
        if (batch.length < PAGE) break;
      }
      await client.query('COMMIT');
    });
    if (rows !== log.events || sink < 0) throw new Error(`raw scan read ${rows} rows of ${log.events}`);
    return rate;
  } finally {
    await client.end();
  }
}
