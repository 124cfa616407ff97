import { SqliteEventStore } from '../../src/event-store/sqlite/sqlite-event-store';
import { filledLog } from '../fixtures/filled-log';
import { turnSummaryEmInsertProjection, turnSummaryProjection } from '../fixtures/sample-projection';
import { alternate, type Series } from '../lib/alternate';
import type { BenchContext } from '../lib/context';
import { rawScan, storeReadAll } from '../workloads/full-log-read';
import { CATCH_UP_BATCH, rawInsert, rebuild } from '../workloads/projection-write';
import { rawAppend } from '../workloads/raw-append';
import { storeAppends } from '../workloads/store-append';

/**
 * The comparisons behind the targets: each store figure and its raw reference run in alternating
 * rounds (see lib/alternate.ts). The cases in ceiling.ts, store-*.ts and projection-rebuild.ts
 * report one side each; whichever runs first triggers the rounds.
 */
type Pair = (ctx: BenchContext) => Promise<Record<string, Series | undefined>>;

async function withStore<T>(file: string, use: (store: SqliteEventStore) => Promise<T>): Promise<T> {
  const store = await SqliteEventStore.open({ file, sync: 'full' });
  try {
    return await use(store);
  } finally {
    await store.close();
  }
}

export const batchedAppends: Pair = (ctx) =>
  alternate(ctx, 'batched-appends', {
    ceiling: {
      caseName: 'ceiling.append.100-per-tx.full',
      runs: ctx.sizes.runs,
      run: () => rawAppend(ctx, ctx.sizes.ceilingBatched, 100),
    },
    store: {
      caseName: 'store.append.64-in-flight.full',
      runs: ctx.sizes.runs,
      run: () => storeAppends(ctx, ctx.sizes.storeInFlight, 64),
    },
  });

export const singleAppends: Pair = (ctx) =>
  alternate(ctx, 'single-appends', {
    ceiling: {
      caseName: 'ceiling.append.1-per-tx.full',
      runs: ctx.sizes.runs,
      run: () => rawAppend(ctx, ctx.sizes.ceilingSingle, 1),
    },
    store: {
      caseName: 'store.append.1-awaiting.full',
      runs: ctx.sizes.runs,
      run: () => storeAppends(ctx, ctx.sizes.storeSingle, 1),
    },
  });

export const fullLogReads: Pair = (ctx) =>
  alternate(ctx, 'full-log-reads', {
    ceiling: {
      caseName: 'ceiling.scan.full-log',
      runs: ctx.sizes.runs,
      run: async () => rawScan(await filledLog(ctx)),
    },
    store: {
      caseName: 'store.read.readAll-pages-1000',
      runs: ctx.sizes.runs,
      run: async () => {
        const log = await filledLog(ctx);
        return withStore(log.file, (store) => storeReadAll(store, log));
      },
    },
  });

export const projectionWrites: Pair = (ctx) =>
  alternate(ctx, 'projection-writes', {
    rebuild: {
      caseName: 'projection.rebuild',
      runs: ctx.sizes.rebuildRuns,
      run: async () => {
        const log = await filledLog(ctx);
        return withStore(log.file, (store) => rebuild(ctx, turnSummaryProjection, store, log));
      },
    },
    raw: { caseName: 'projection.raw-insert.batched-1000', runs: ctx.sizes.runs, run: () => rawInsert(ctx, 1000) },
    // Diagnostics in the same rounds, so they can be set against the two figures above.
    raw5000: {
      caseName: 'projection.raw-insert.batched-5000',
      runs: ctx.sizes.diagnosticRuns,
      run: () => rawInsert(ctx, CATCH_UP_BATCH),
    },
    emInsert: {
      caseName: 'projection.rebuild.em-insert',
      runs: ctx.sizes.diagnosticRuns,
      run: async () => {
        const log = await filledLog(ctx);
        return withStore(log.file, (store) => rebuild(ctx, turnSummaryEmInsertProjection, store, log));
      },
    },
  });

/** A case's side of a pair as a Result body; throws if that side did not run. */
export function sideOf(series: Series | undefined, name: string): { figure: number; runs: number[] } {
  if (!series) throw new Error(`${name}: its paired rounds did not run`);
  return { figure: series.figure, runs: series.runs };
}
