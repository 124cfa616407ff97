import { openedWithKeysOf, openSealedSqliteLog } from '../../src/cli/open-sealed-store';
import fs from 'node:fs';
import path from 'node:path';
import { ALL_PROJECTIONS } from '../../projections';
import type { EventStore } from '../../src/event-store/event-store.port';
import { PostgresEventStore } from '../../src/event-store/postgres/postgres-event-store';
import { SqliteEventStore } from '../../src/event-store/sqlite/sqlite-event-store';
import { filledLog } from '../fixtures/filled-log';
import { turnSummaryProjection } from '../fixtures/sample-projection';
import { alternate, type Sample } from '../lib/alternate';
import type { BenchCase } from '../lib/case';
import type { BenchContext } from '../lib/context';
import { postgresCopyOfLog } from '../lib/postgres-log';
import { rebuild } from '../workloads/projection-write';
import { catchUpAllReadModels, cpuNote, freshDataDir } from './catch-up';
import { dataset } from './conversations';
import { sideOf } from './pairs';

/**
 * Issue 48: the rebuild and the catch-up with the LOG in PostgreSQL, beside the same workloads on
 * the SQLite log, in alternating rounds of one group. The events are the same: the SQLite log is
 * copied into a PostgresEventStore's table on a throwaway server (lib/postgres-log.ts); the read
 * models stay where the SQLite cases keep them (SQLite files). Only the reads of the log differ.
 * The `.sqlite-log` cases are the targets' denominators, measured here rather than taken from the
 * foundation and catch-up groups, so `--only postgres` runs both sides and each sees the same drift.
 */

async function onStore<T>(open: () => Promise<EventStore>, use: (store: EventStore) => Promise<T>): Promise<T> {
  const store = await open();
  try {
    return await use(store);
  } finally {
    await store.close();
  }
}

const rebuilds = (ctx: BenchContext) =>
  alternate(ctx, 'postgres-rebuild', {
    sqlite: {
      caseName: 'postgres.projection.rebuild.sqlite-log',
      runs: ctx.sizes.runs,
      run: async () => {
        const log = await filledLog(ctx);
        return onStore(
          () => SqliteEventStore.open({ file: log.file, sync: 'normal' }),
          (store) => rebuild(ctx, turnSummaryProjection, store, log),
        );
      },
    },
    postgres: {
      caseName: 'postgres.projection.rebuild',
      runs: ctx.sizes.runs,
      run: async () => {
        const log = await filledLog(ctx);
        const { url } = await postgresCopyOfLog(ctx, log.file, 'bench_rebuild_log');
        return onStore(
          () => PostgresEventStore.open({ url }),
          (store) => rebuild(ctx, turnSummaryProjection, store, log),
        );
      },
    },
  });

/** Three rounds each; one over the 1M-conversation dataset (14M events), where a round takes a quarter of an hour. */
const catchUpRounds = (events: number) => (events > 2_000_000 ? 1 : 3);

async function catchUpRound(ctx: BenchContext, side: 'sqlite' | 'postgres'): Promise<Sample> {
  const data = await dataset(ctx);
  const dir = freshDataDir(ctx, data.dir, `pg-catch-up-${side}`);
  try {
    const open =
      side === 'sqlite'
        ? () => openSealedSqliteLog(dir)
        : async () => {
            const { url } = await postgresCopyOfLog(ctx, path.join(data.dir, 'events.sqlite'), 'bench_catch_up_log');
            return openedWithKeysOf(await PostgresEventStore.open({ url }), dir);
          };
    const run = await onStore(open, (store) => catchUpAllReadModels(ctx, dir, store, `postgres.catch-up.${side}`));
    return { value: run.events / run.seconds, detail: { ...run, conversations: data.conversations } };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

const catchUps = async (ctx: BenchContext) => {
  const { events } = await dataset(ctx);
  return alternate(ctx, 'postgres-catch-up', {
    sqlite: {
      caseName: 'postgres.catch-up.all-read-models.sqlite-log',
      runs: catchUpRounds(events),
      run: () => catchUpRound(ctx, 'sqlite'),
    },
    postgres: {
      caseName: 'postgres.catch-up.all-read-models',
      runs: catchUpRounds(events),
      run: () => catchUpRound(ctx, 'postgres'),
    },
  });
};

const logName = (side: 'sqlite' | 'postgres') => (side === 'sqlite' ? 'the SQLite log' : 'the log in PostgreSQL');

const rebuildCase = (name: string, side: 'sqlite' | 'postgres'): BenchCase => ({
  name,
  async run(ctx) {
    const r = sideOf((await rebuilds(ctx))[side], name);
    return {
      ...r,
      unit: 'events/s',
      note: `projection.rebuild's workload (catchUp of the sample read model into a SQLite file, readAll pages of 5,000) over ${logName(side)}, ${ctx.sizes.logEvents.toLocaleString('en-US')} events; rounds alternate with the other log`,
    };
  },
});

const catchUpCase = (name: string, side: 'sqlite' | 'postgres'): BenchCase => ({
  name,
  async run(ctx) {
    const series = (await catchUps(ctx))[side];
    const r = sideOf(series, name);
    const last = series!.details[series!.details.length - 1] as {
      events: number;
      seconds: number;
      cpu: { main: number | null; others: number | null };
      conversations: number;
    };
    return {
      ...r,
      unit: 'events/s',
      note: `catch-up.all-read-models' workload (${ALL_PROJECTIONS.length} read models in SQLite files, one log feed) over ${logName(side)}, ${last.events.toLocaleString('en-US')} events of ${last.conversations.toLocaleString('en-US')} seeded conversations; CPU per event ${cpuNote(last.cpu)}`,
      details: { rounds: series!.details },
    };
  },
});

export const postgresCatchUpCases: BenchCase[] = [
  rebuildCase('postgres.projection.rebuild.sqlite-log', 'sqlite'),
  rebuildCase('postgres.projection.rebuild', 'postgres'),
  catchUpCase('postgres.catch-up.all-read-models.sqlite-log', 'sqlite'),
  catchUpCase('postgres.catch-up.all-read-models', 'postgres'),
];
