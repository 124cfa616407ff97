import Database from 'better-sqlite3';
import { SqliteEventStore } from '../../src/event-store/sqlite/sqlite-event-store';
import { catchUp } from '../../src/read-models/catch-up';
import { openReadModel } from '../../src/read-models/open-read-model';
import { filledLog } from '../fixtures/filled-log';
import { TurnSummary, turnSummaryOf, turnSummaryProjection, turnSummaryValues } from '../fixtures/sample-projection';
import { INSERT_TURN_SUMMARY, openRawReadModel, turnSummaryDdl, turnSummaryRows } from '../fixtures/turn-summary-table';
import type { TurnCompleted } from '../fixtures/turn-event';
import type { BenchCase } from '../lib/case';
import type { BenchContext } from '../lib/context';
import { perSecond, repeat } from '../lib/measure';
import { removeDb } from '../lib/paths';

const RAW_TX = 1000;
/** The TypeORM-only probe needs no more than this to give a stable cost per insert. */
const TYPEORM_PROBE_ROWS = 100_000;
/** catchUp's default batch: one transaction per 5,000 events. */
const CATCH_UP_BATCH = 5000;

function countRows(file: string): number {
  const db = new Database(file, { readonly: true });
  try {
    return db.prepare<[], { n: number }>('SELECT count(*) AS n FROM turn_summary').get()!.n;
  } finally {
    db.close();
  }
}

/** Raw batched insert of precomputed rows: what writing these rows costs with nothing in the way. */
async function rawInsert(ctx: BenchContext, perTx: number): Promise<number> {
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

export const projectionCases: BenchCase[] = [
  {
    name: 'projection.rebuild.typeorm',
    async run(ctx) {
      const log = await filledLog(ctx);
      const store = await SqliteEventStore.open({ file: log.file, sync: 'full' });
      try {
        const r = await repeat(ctx.sizes.rebuildRuns, async () => {
          const file = ctx.file('turn-summary.sqlite');
          const source = await openReadModel(turnSummaryProjection, file);
          try {
            let applied = 0;
            const rate = await perSecond(log.events, async () => {
              applied = (await catchUp(source, turnSummaryProjection, store, { batchSize: CATCH_UP_BATCH })).events;
            });
            if (applied !== log.events) throw new Error(`catchUp applied ${applied} events of ${log.events}`);
            await source.destroy();
            if (countRows(file) !== log.events) throw new Error('the rebuilt read model lacks rows');
            return rate;
          } finally {
            if (source.isInitialized) await source.destroy();
            removeDb(file);
          }
        });
        return {
          ...r,
          unit: 'events/s',
          note: `catchUp(readAll pages of ${CATCH_UP_BATCH}) -> applyBatch -> em.insert per event, ${log.events} events, ${ctx.sizes.rebuildRuns} run(s)`,
        };
      } finally {
        await store.close();
      }
    },
  },
  {
    name: 'projection.raw-insert.batched-1000',
    async run(ctx) {
      const r = await repeat(ctx.sizes.runs, () => rawInsert(ctx, RAW_TX));
      return { ...r, unit: 'rows/s', note: `raw better-sqlite3 insert of the same precomputed rows, ${RAW_TX} per tx, same DDL and pragmas` };
    },
  },
  {
    // Diagnostic: the same insert in transactions as large as catchUp's. Rows land on ~1 index
    // page per stream, so a transaction's write volume grows with the streams it touches, not
    // with its rows: the transaction size alone moves this figure a lot on a large read model.
    name: 'projection.raw-insert.batched-5000',
    async run(ctx) {
      const r = await repeat(ctx.sizes.diagnosticRuns, () => rawInsert(ctx, CATCH_UP_BATCH));
      return { ...r, unit: 'rows/s', note: `diagnostic: as raw-insert.batched-1000 but ${CATCH_UP_BATCH} per tx, like catchUp's batches` };
    },
  },
  {
    // Diagnostic: the projection's whole job done by hand (scan, parse, map, insert); no target.
    name: 'projection.raw-from-log.batched-1000',
    async run(ctx) {
      const [log, ddl] = await Promise.all([filledLog(ctx), turnSummaryDdl(ctx)]);
      const r = await repeat(ctx.sizes.diagnosticRuns, async () => {
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
              if (++pending === RAW_TX) {
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
      });
      return { ...r, unit: 'events/s', note: `diagnostic: raw scan + JSON.parse + insert, ${RAW_TX} per tx (no store, no TypeORM)` };
    },
  },
  {
    // Diagnostic: what TypeORM's em.insert costs per row, without reading the log; no target.
    name: 'projection.typeorm-insert-only',
    async run(ctx) {
      const all = await turnSummaryRows(ctx);
      const rows = all.slice(0, Math.min(all.length, TYPEORM_PROBE_ROWS));
      const r = await repeat(ctx.sizes.diagnosticRuns, async () => {
        const file = ctx.file('typeorm-probe.sqlite');
        const source = await openReadModel(turnSummaryProjection, file);
        try {
          return await perSecond(rows.length, async () => {
            for (let from = 0; from < rows.length; from += CATCH_UP_BATCH) {
              await source.transaction(async (em) => {
                for (let i = from; i < Math.min(rows.length, from + CATCH_UP_BATCH); i++) await em.insert(TurnSummary, rows[i]);
              });
            }
          });
        } finally {
          await source.destroy();
          removeDb(file);
        }
      });
      return {
        ...r,
        unit: 'rows/s',
        note: `diagnostic: em.insert of precomputed rows, ${CATCH_UP_BATCH} per tx, ${rows.length} rows: ${(1e6 / r.figure).toFixed(1)} µs/insert`,
        details: { microsecondsPerInsert: +(1e6 / r.figure).toFixed(2) },
      };
    },
  },
];
