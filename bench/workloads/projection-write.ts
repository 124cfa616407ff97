import Database from 'better-sqlite3';
import type { EventStore } from '../../src/event-store/event-store.port';
import { catchUp } from '../../src/read-models/generations/catch-up';
import { openReadModel } from '../../src/read-models/generations/open-read-model';
import type { Projection } from '../../src/read-models/projection';
import type { FilledLog } from '../fixtures/filled-log';
import { TurnSummary, turnSummaryOf, turnSummaryProjection, turnSummaryValues } from '../fixtures/sample-projection';
import type { TurnCompleted } from '../fixtures/turn-event';
import { INSERT_TURN_SUMMARY, openRawReadModel, turnSummaryDdl, turnSummaryRows } from '../fixtures/turn-summary-table';
import type { BenchContext } from '../lib/context';
import { perSecond } from '../lib/measure';
import { removeDb } from '../lib/paths';

/** catchUp's default batch: one transaction per 5,000 events. */
export const CATCH_UP_BATCH = 5000;

function countRows(file: string): number {
  const db = new Database(file, { readonly: true });
  try {
    return db.prepare<[], { n: number }>('SELECT count(*) AS n FROM turn_summary').get()!.n;
  } finally {
    db.close();
  }
}

/** Builds a fresh generation of `projection` from the whole log with catchUp; events per second. */
export async function rebuild(
  ctx: BenchContext,
  projection: Projection,
  store: EventStore,
  log: FilledLog,
): Promise<number> {
  const file = ctx.file(`${projection.name}.sqlite`);
  // Opening creates the tables: a fixed cost, not part of the rebuild's rate.
  const source = await openReadModel(projection, file);
  try {
    let applied = 0;
    const rate = await perSecond(log.events, async () => {
      applied = (await catchUp(source, projection, store, { batchSize: CATCH_UP_BATCH })).events;
    });
    if (applied !== log.events) throw new Error(`catchUp applied ${applied} events of ${log.events}`);
    await source.destroy();
    if (countRows(file) !== log.events) throw new Error('the rebuilt read model lacks rows');
    return rate;
  } finally {
    if (source.isInitialized) await source.destroy();
    removeDb(file);
  }
}

/** Raw batched insert of the precomputed rows: writing these rows with nothing in the way. */
export async function rawInsert(ctx: BenchContext, perTx: number): Promise<number> {
  const [ddl, rows] = await Promise.all([turnSummaryDdl(ctx), turnSummaryRows(ctx)]);
  const file = ctx.file(`raw-turn-summary-${perTx}.sqlite`);
  const db = openRawReadModel(file, ddl);
  try {
    const insert = db.prepare(INSERT_TURN_SUMMARY);
    const tx = db.transaction((from: number, to: number) => {
      for (let i = from; i < to; i++) insert.run(turnSummaryValues(rows[i]));
    });
    const rate = await perSecond(rows.length, () => {
      for (let from = 0; from < rows.length; from += perTx) tx(from, Math.min(rows.length, from + perTx));
    });
    db.close();
    if (countRows(file) !== rows.length) throw new Error('raw insert lost rows');
    return rate;
  } finally {
    if (db.open) db.close();
    removeDb(file);
  }
}

/** The projection's whole job by hand: scan, parse, map, insert `perTx` rows per transaction. */
export async function rawFromLog(ctx: BenchContext, log: FilledLog, perTx: number): Promise<number> {
  const ddl = await turnSummaryDdl(ctx);
  const file = ctx.file('raw-from-log.sqlite');
  const db = openRawReadModel(file, ddl);
  const source = new Database(log.file, { readonly: true });
  try {
    const insert = db.prepare(INSERT_TURN_SUMMARY);
    const scan = source.prepare<[], { data: string }>('SELECT data FROM events ORDER BY global_position');
    return await perSecond(log.events, () => {
      let pending = 0;
      db.exec('BEGIN');
      for (const row of scan.iterate()) {
        insert.run(turnSummaryValues(turnSummaryOf({ data: JSON.parse(row.data) as TurnCompleted })));
        if (++pending === perTx) {
          db.exec('COMMIT; BEGIN');
          pending = 0;
        }
      }
      db.exec('COMMIT');
    });
  } finally {
    source.close();
    db.close();
    removeDb(file);
  }
}

/** em.insert of precomputed rows, CATCH_UP_BATCH per transaction, no log read: TypeORM's share. */
export async function typeormInsertOnly(ctx: BenchContext, limit: number): Promise<{ rows: number; rate: number }> {
  const all = await turnSummaryRows(ctx);
  const rows = all.slice(0, Math.min(all.length, limit));
  const file = ctx.file('typeorm-probe.sqlite');
  const source = await openReadModel(turnSummaryProjection, file);
  try {
    const rate = await perSecond(rows.length, async () => {
      for (let from = 0; from < rows.length; from += CATCH_UP_BATCH) {
        await source.transaction(async (em) => {
          for (let i = from; i < Math.min(rows.length, from + CATCH_UP_BATCH); i++)
            await em.insert(TurnSummary, rows[i]);
        });
      }
    });
    return { rows: rows.length, rate };
  } finally {
    await source.destroy();
    removeDb(file);
  }
}
