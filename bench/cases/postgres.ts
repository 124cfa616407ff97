import fs from 'node:fs';
import path from 'node:path';
import type { DataSource } from 'typeorm';
import { conversationsProjection } from '../../projections/conversations/conversations.projection';
import type { ConversationsRepository } from '../../src/conversations-api/conversations.repository';
import type { ListFilters } from '../../src/conversations-api/list-query';
import { PostgresConversationsRepository } from '../../src/conversations-api/postgres-conversations.repository';
import { SqliteConversationsRepository } from '../../src/conversations-api/sqlite-conversations.repository';
import { SqliteEventStore } from '../../src/event-store/sqlite/sqlite-event-store';
import { catchUp } from '../../src/read-models/catch-up';
import { openReadModel } from '../../src/read-models/open-read-model';
import { dropGenerationSchema, openPostgresReadModel } from '../../src/read-models/postgres/open-postgres-read-model';
import { seed } from '../../src/seed/seed';
import { startPostgresServer, type PostgresServer } from '../../test/support/postgres-server';
import { filledLog } from '../fixtures/filled-log';
import { turnSummaryProjection } from '../fixtures/sample-projection';
import type { BenchCase, Result } from '../lib/case';
import type { BenchContext } from '../lib/context';
import { median, perSecond } from '../lib/measure';
import { CATCH_UP_BATCH, rebuild } from '../workloads/projection-write';

/**
 * The PostgreSQL backend beside SQLite, in one run (`npm run bench -- --backend postgres`): the
 * foundation's rebuild (the sample read model over the shared log) and the conversations list,
 * each on both databases. PostgreSQL is a throwaway server the bench starts (or BENCH_POSTGRES_URL,
 * an empty database of a server of yours), on this machine, as the read models' database would be.
 */

interface Server {
  url: string;
  stop(): Promise<void>;
}

function postgres(ctx: BenchContext): Promise<Server> {
  return ctx.shared('postgres-server', async () => {
    const given = process.env.BENCH_POSTGRES_URL;
    if (given) return { url: given, stop: async () => undefined };
    const server: PostgresServer = await startPostgresServer(undefined, 'parley_bench');
    process.once('exit', () => void server.stop());
    return server;
  });
}

async function rebuildOnPostgres(ctx: BenchContext): Promise<Result> {
  const [log, server] = await Promise.all([filledLog(ctx), postgres(ctx)]);
  const store = await SqliteEventStore.open({ file: log.file, sync: 'normal' });
  const schema = 'bench_turn_summary';
  const source = await openPostgresReadModel(turnSummaryProjection, server.url, schema);
  try {
    let applied = 0;
    const rate = await perSecond(log.events, async () => {
      applied = (await catchUp(source, turnSummaryProjection, store, { batchSize: CATCH_UP_BATCH })).events;
    });
    const [{ n }] = (await source.query('SELECT count(*)::int AS n FROM turn_summary')) as Array<{ n: number }>;
    if (applied !== log.events || n !== log.events) throw new Error(`PostgreSQL rebuild applied ${applied} events into ${n} rows, of ${log.events}`);
    return { figure: rate, unit: 'events/s', note: `catchUp of the sample read model over the ${log.events.toLocaleString('en-US')}-event log into a PostgreSQL schema (PgRows, batches of ${CATCH_UP_BATCH})` };
  } finally {
    await dropGenerationSchema(source, schema);
    await source.destroy();
    await store.close();
  }
}

async function rebuildOnSqlite(ctx: BenchContext): Promise<Result> {
  const log = await filledLog(ctx);
  const store = await SqliteEventStore.open({ file: log.file, sync: 'normal' });
  try {
    return { figure: await rebuild(ctx, turnSummaryProjection, store, log), unit: 'events/s', note: 'the same rebuild into a SQLite file (RowWriter)' };
  } finally {
    await store.close();
  }
}

interface ListFigures {
  sqlite: number[];
  postgres: number[];
  conversations: number;
  rows: number;
}

const LIVE_LIST: ListFilters = { startTime: null, endTime: null, clientEnv: 'live', channels: [], variantId: null, variantName: null, inProgress: null, search: null, sample: false };

/** One seeded dataset, its conversations read model built on both databases; the same list query in turn. */
function listFigures(ctx: BenchContext): Promise<ListFigures> {
  return ctx.shared('postgres-list', async () => {
    const server = await postgres(ctx);
    const conversations = ctx.quick ? 2_000 : 20_000;
    const dir = ctx.file('postgres-list');
    fs.mkdirSync(dir, { recursive: true });
    ctx.log(`postgres: seeding ${conversations.toLocaleString('en-US')} conversations`);
    const seeded = await seed({ dataDir: dir, conversations, agents: 1, days: 90, seed: 11, concurrency: 16, liveShare: 0.95, log: () => undefined });
    const agentId = seeded.agents[0].agentId.replace(/^PROJECT-/, '');
    const store = await SqliteEventStore.open({ file: path.join(dir, 'events.sqlite'), sync: 'normal' });
    const sqlite = await openReadModel(conversationsProjection, path.join(dir, 'bench-conversations.sqlite'));
    const schema = 'bench_conversations';
    const pg = await openPostgresReadModel(conversationsProjection, server.url, schema);
    try {
      await catchUp(sqlite, conversationsProjection, store);
      ctx.log('postgres: building the conversations read model in PostgreSQL');
      await catchUp(pg, conversationsProjection, store);
      await pg.query('ANALYZE');
      const repositories: Array<[keyof Pick<ListFigures, 'sqlite' | 'postgres'>, ConversationsRepository, DataSource]> = [
        ['sqlite', new SqliteConversationsRepository(() => sqlite), sqlite],
        ['postgres', new PostgresConversationsRepository(() => pg), pg],
      ];
      const out: ListFigures = { sqlite: [], postgres: [], conversations, rows: 0 };
      const rounds = ctx.quick ? 40 : 200;
      for (let round = 0; round < rounds + 10; round++) {
        for (const [name, repository] of round % 2 === 0 ? repositories : [...repositories].reverse()) {
          const start = process.hrtime.bigint();
          const page = await repository.list(agentId, LIVE_LIST, null, 100);
          const ms = Number(process.hrtime.bigint() - start) / 1e6;
          // the first rounds warm caches and plans: not measured
          if (round >= 10) out[name].push(ms);
          out.rows = page.rows.length;
        }
      }
      if (out.rows !== 100) throw new Error(`the list answered ${out.rows} rows, not 100`);
      return out;
    } finally {
      await dropGenerationSchema(pg, schema);
      await pg.destroy();
      await sqlite.destroy();
      await store.close();
    }
  });
}

const listCase = (name: string, side: 'sqlite' | 'postgres'): BenchCase => ({
  name,
  async run(ctx) {
    const f = await listFigures(ctx);
    const note = `repository list, limit=100, client_env=live, ${f.conversations.toLocaleString('en-US')} seeded conversations, ${f[side].length} calls alternating with the other database`;
    return { figure: median(f[side]), unit: 'ms', note };
  },
});

export const postgresCases: BenchCase[] = [
  { name: 'postgres.rebuild.sqlite', run: rebuildOnSqlite },
  { name: 'postgres.rebuild.postgres', run: rebuildOnPostgres },
  listCase('postgres.conversations.list.sqlite.p50', 'sqlite'),
  listCase('postgres.conversations.list.postgres.p50', 'postgres'),
];
