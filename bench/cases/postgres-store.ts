import { PostgresEventStore } from '../../src/event-store/postgres/postgres-event-store';
import { STREAMS } from '../fixtures/turn-event';
import { alternate, type Series } from '../lib/alternate';
import type { BenchCase, Result } from '../lib/case';
import type { BenchContext } from '../lib/context';
import { loadPostgresPeer } from '../lib/peer-install';
import { storeReadAll } from '../workloads/full-log-read';
import { postgresRawAppend, postgresStoreAppends } from '../workloads/postgres-append';
import { postgresLog, rawPostgresScan } from '../workloads/postgres-log-read';
import { postgresPeerAppends } from '../workloads/postgres-peer-append';
import { sideOf } from './pairs';

/**
 * The log in PostgreSQL (EVENT_STORE=postgres) against what PostgreSQL itself allows and against
 * Emmett's PostgreSQL store, on the run's server (lib/bench-postgres.ts): the PostgreSQL twins of
 * ceiling.ts, store-append.ts, store-read.ts and peer.ts. Each comparison runs in alternating rounds.
 */
const IN_FLIGHT = 64;
const CEILING_PER_TX = 100;

const peer = (ctx: BenchContext) =>
  ctx.shared('postgres-peer', async () => {
    const loaded = loadPostgresPeer(ctx.log);
    if (loaded instanceof Error) process.stderr.write(`\n!!! POSTGRES PEER UNAVAILABLE: ${loaded.message}\n\n`);
    return loaded;
  });

const appends = (ctx: BenchContext) =>
  alternate(ctx, 'postgres-appends', {
    ceiling: {
      caseName: 'postgres.ceiling.append.batched',
      runs: ctx.sizes.runs,
      run: () => postgresRawAppend(ctx, ctx.sizes.ceilingBatched, CEILING_PER_TX),
    },
    store: {
      caseName: 'postgres.store.append.64-in-flight',
      runs: ctx.sizes.runs,
      run: () => postgresStoreAppends(ctx, ctx.sizes.storeInFlight, IN_FLIGHT),
    },
    peer: {
      caseName: 'postgres.peer.append.64-in-flight',
      runs: ctx.sizes.runs,
      run: async () => {
        const emmett = await peer(ctx);
        if (emmett instanceof Error) throw emmett;
        return postgresPeerAppends(ctx, emmett, ctx.sizes.postgresPeerAppends, IN_FLIGHT);
      },
    },
  });

const reads = (ctx: BenchContext) =>
  alternate(ctx, 'postgres-reads', {
    ceiling: {
      caseName: 'postgres.ceiling.scan.full-log',
      runs: ctx.sizes.runs,
      run: async () => rawPostgresScan(await postgresLog(ctx)),
    },
    store: {
      caseName: 'postgres.store.read.readAll',
      runs: ctx.sizes.runs,
      run: async () => {
        const log = await postgresLog(ctx);
        const store = await PostgresEventStore.open({ url: log.url });
        try {
          return await storeReadAll(store, log);
        } finally {
          await store.close();
        }
      },
    },
  });

const detail = (series: Series | undefined, key: string) => (series?.details ?? []).map((d) => d?.[key]);

export const postgresStoreCases: BenchCase[] = [
  {
    name: 'postgres.ceiling.append.batched',
    async run(ctx): Promise<Result> {
      const series = (await appends(ctx)).ceiling;
      return {
        ...sideOf(series, this.name),
        unit: 'events/s',
        note: `raw pg, the store's table and indexes, ${ctx.sizes.ceilingBatched} rows, ${CEILING_PER_TX} per INSERT (unnest) and transaction, one connection; WAL bytes/event ${detail(series, 'walBytesPerEvent')[0]}`,
        details: { walBytesPerEvent: detail(series, 'walBytesPerEvent') },
      };
    },
  },
  {
    name: 'postgres.store.append.64-in-flight',
    async run(ctx): Promise<Result> {
      const series = (await appends(ctx)).store;
      return {
        ...sideOf(series, this.name),
        unit: 'events/s',
        note: `PostgresEventStore, ${ctx.sizes.storeInFlight} one-event appends over ${STREAMS} streams, ${IN_FLIGHT} in flight; ~${detail(series, 'appendsPerCommit')[0]} appends/commit, WAL bytes/event ${detail(series, 'walBytesPerEvent')[0]}`,
        details: {
          appendsPerCommit: detail(series, 'appendsPerCommit'),
          walBytesPerEvent: detail(series, 'walBytesPerEvent'),
        },
      };
    },
  },
  {
    name: 'postgres.peer.append.64-in-flight',
    async run(ctx): Promise<Result> {
      const emmett = await peer(ctx);
      if (emmett instanceof Error)
        return { figure: null, unit: 'events/s', note: `PEER UNAVAILABLE: ${emmett.message.split('\n')[0]}` };
      return {
        ...sideOf((await appends(ctx)).peer, this.name),
        unit: 'events/s',
        note: `Emmett PostgreSQL 0.42.0 (getPostgreSQLEventStore, its default pool), ${ctx.sizes.postgresPeerAppends} one-event appends over ${STREAMS} streams, ${IN_FLIGHT} in flight`,
      };
    },
  },
  {
    name: 'postgres.ceiling.scan.full-log',
    async run(ctx): Promise<Result> {
      return {
        ...sideOf((await reads(ctx)).ceiling, this.name),
        unit: 'events/s',
        note: `raw pg, SELECT * ORDER BY transaction_id, global_position through a cursor, FETCH 1000, JSON.parse of data and metadata, ${ctx.sizes.logEvents} events`,
      };
    },
  },
  {
    name: 'postgres.store.read.readAll',
    async run(ctx): Promise<Result> {
      return {
        ...sideOf((await reads(ctx)).store, this.name),
        unit: 'events/s',
        note: `PostgresEventStore readAll({after, maxCount: 1000}) until the head, ${ctx.sizes.logEvents} events`,
      };
    },
  },
];
