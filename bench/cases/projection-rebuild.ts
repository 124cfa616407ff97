import { filledLog } from '../fixtures/filled-log';
import type { BenchCase } from '../lib/case';
import { median, repeat } from '../lib/measure';
import { CATCH_UP_BATCH, rawFromLog, typeormInsertOnly } from '../workloads/projection-write';
import { projectionWrites, sideOf } from './pairs';

/** The TypeORM-only probe needs no more rows than this for a stable cost per insert. */
const TYPEORM_PROBE_ROWS = 100_000;

/**
 * Rebuilding the sample read model (fixtures/sample-projection.ts) from the shared log, against
 * a raw insert of the same rows. The diagnostics have no target: they split the rebuild's cost.
 */
export const projectionCases: BenchCase[] = [
  {
    name: 'projection.rebuild',
    async run(ctx) {
      const r = sideOf((await projectionWrites(ctx)).rebuild, this.name);
      return {
        ...r,
        unit: 'events/s',
        note: `catchUp (readAll pages of ${CATCH_UP_BATCH}, one tx each) -> rows.insert (RowWriter) per event, ${ctx.sizes.logEvents} events`,
      };
    },
  },
  {
    name: 'projection.raw-insert.batched-1000',
    async run(ctx) {
      const r = sideOf((await projectionWrites(ctx)).raw, this.name);
      return {
        ...r,
        unit: 'rows/s',
        note: 'raw better-sqlite3 insert of the same precomputed rows, 1000 per tx, same DDL and pragmas',
      };
    },
  },
  {
    // Rows land on ~one primary-key page per stream, so a transaction's write volume follows the
    // streams it touches, not its rows: on a large read model the transaction size alone moves
    // the raw figure a lot. This one uses catchUp's transaction size.
    name: 'projection.raw-insert.batched-5000',
    async run(ctx) {
      const r = sideOf((await projectionWrites(ctx)).raw5000, this.name);
      return {
        ...r,
        unit: 'rows/s',
        note: `diagnostic: as raw-insert.batched-1000 but ${CATCH_UP_BATCH} per tx, catchUp's transaction size`,
      };
    },
  },
  {
    name: 'projection.rebuild.em-insert',
    async run(ctx) {
      const r = sideOf((await projectionWrites(ctx)).emInsert, this.name);
      return {
        ...r,
        unit: 'events/s',
        note: 'diagnostic: as projection.rebuild, but the handler writes with TypeORM em.insert (new SQL text per row)',
      };
    },
  },
  {
    name: 'projection.raw-from-log.batched-5000',
    async run(ctx) {
      const log = await filledLog(ctx);
      const r = await repeat(ctx.sizes.diagnosticRuns, () => rawFromLog(ctx, log, CATCH_UP_BATCH));
      return {
        ...r,
        unit: 'events/s',
        note: `diagnostic: raw scan + JSON.parse + insert, ${CATCH_UP_BATCH} per tx (no store, no TypeORM)`,
      };
    },
  },
  {
    name: 'projection.typeorm-insert-only',
    async run(ctx) {
      const runs: number[] = [];
      let rows = 0;
      for (let i = 0; i < ctx.sizes.diagnosticRuns; i++) {
        const probe = await typeormInsertOnly(ctx, TYPEORM_PROBE_ROWS);
        rows = probe.rows;
        runs.push(probe.rate);
      }
      const figure = median(runs);
      const micros = 1e6 / figure;
      return {
        figure,
        runs,
        unit: 'rows/s',
        note: `diagnostic: em.insert of ${rows} precomputed rows, ${CATCH_UP_BATCH} per tx, no log read: ${micros.toFixed(1)} µs/insert`,
        details: { microsecondsPerInsert: +micros.toFixed(2) },
      };
    },
  },
];
