import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { SqliteEventStore } from '../../src/event-store/sqlite/sqlite-event-store';
import { catchUp } from '../../src/read-models/generations/catch-up';
import {
  dropGenerationSchema,
  openPostgresReadModel,
} from '../../src/read-models/generations/postgres/open-postgres-read-model';
import { seed } from '../../src/cli/seed/seed';
import { filledLog } from '../fixtures/filled-log';
import { turnSummaryProjection } from '../fixtures/sample-projection';
import type { BenchCase, Result } from '../lib/case';
import type { BenchContext } from '../lib/context';
import { benchPostgres } from '../lib/bench-postgres';
import { startBenchApp } from '../lib/http-app';
import { median, perSecond } from '../lib/measure';
import { CATCH_UP_BATCH, rebuild } from '../workloads/projection-write';

/**
 * The PostgreSQL backend beside SQLite, in one run (`npm run bench -- --backend postgres`): the
 * foundation's rebuild (the sample read model over the shared log) and the conversations list,
 * each on both databases. PostgreSQL is the run's server (lib/bench-postgres.ts), on this machine,
 * as the read models' database would be. The log's own cases are in postgres-store.ts and
 * postgres-debug-chat.ts.
 */

async function rebuildOnPostgres(ctx: BenchContext): Promise<Result> {
  const [log, server] = await Promise.all([filledLog(ctx), benchPostgres(ctx)]);
  const store = await SqliteEventStore.open({ file: log.file, sync: 'normal' });
  const schema = 'bench_turn_summary';
  const source = await openPostgresReadModel(turnSummaryProjection, server.url, schema);
  try {
    let applied = 0;
    const rate = await perSecond(log.events, async () => {
      applied = (await catchUp(source, turnSummaryProjection, store, { batchSize: CATCH_UP_BATCH })).events;
    });
    const [{ n }] = (await source.query('SELECT count(*)::int AS n FROM turn_summary')) as Array<{ n: number }>;
    if (applied !== log.events || n !== log.events)
      throw new Error(`PostgreSQL rebuild applied ${applied} events into ${n} rows, of ${log.events}`);
    return {
      figure: rate,
      unit: 'events/s',
      note: `catchUp of the sample read model over the ${log.events.toLocaleString('en-US')}-event log into a PostgreSQL schema (PgRows, batches of ${CATCH_UP_BATCH})`,
    };
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
    return {
      figure: await rebuild(ctx, turnSummaryProjection, store, log),
      unit: 'events/s',
      note: 'the same rebuild into a SQLite file (RowWriter)',
    };
  } finally {
    await store.close();
  }
}

interface ListFigures {
  sqlite: number[];
  postgres: number[];
  conversations: number;
  bytes: number;
}

/**
 * The conversations list benchmark (GET v3 list, limit=100, client_env=live) on two apps over the
 * same seeded log: one with its read models in SQLite files, one with them (and its platform
 * records) in PostgreSQL, built there from the log at its start. Requests alternate between them.
 */
function listFigures(ctx: BenchContext): Promise<ListFigures> {
  return ctx.shared('postgres-list', async () => {
    const server = await benchPostgres(ctx);
    const conversations = ctx.quick ? 2_000 : 20_000;
    const dir = ctx.file('postgres-list-sqlite');
    ctx.log(`postgres: seeding ${conversations.toLocaleString('en-US')} conversations`);
    const seeded = await seed({
      dataDir: dir,
      conversations,
      agents: 1,
      days: 90,
      seed: 11,
      concurrency: 16,
      liveShare: 0.95,
      log: () => undefined,
    });
    // the PostgreSQL app reads a copy of the same log, with the same server secret (the seeded key's digest)
    const pgDir = ctx.file('postgres-list-postgres');
    fs.mkdirSync(pgDir, { recursive: true });
    for (const file of ['events.sqlite', 'events.sqlite-wal', 'server-secret']) {
      if (fs.existsSync(path.join(dir, file))) fs.copyFileSync(path.join(dir, file), path.join(pgDir, file));
    }
    const sqliteApp = await startBenchApp(dir);
    const pgApp = await startBenchApp(pgDir, { READ_MODEL_DB: 'postgres', DATABASE_URL: server.url });
    try {
      ctx.log('postgres: the PostgreSQL app builds its read models from the log');
      await Promise.all([sqliteApp.settled(), pgApp.settled()]);
      const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
      const route = `/v3/${seeded.accountId}/${seeded.agents[0].agentId}/conversations?limit=100`;
      const headers = { 'x-api-key': seeded.keys[0].key };
      const apps: Array<['sqlite' | 'postgres', string]> = [
        ['sqlite', sqliteApp.url],
        ['postgres', pgApp.url],
      ];
      const out: ListFigures = { sqlite: [], postgres: [], conversations, bytes: 0 };
      const rounds = ctx.quick ? 40 : 200;
      for (let round = 0; round < rounds + 10; round++) {
        for (const [name, url] of round % 2 === 0 ? apps : [...apps].reverse()) {
          const r = await timedGet(agent, `${url}${route}`, headers);
          if (r.status !== 200) throw new Error(`GET ${route} on ${name}: ${r.status}`);
          // the first rounds warm caches and plans: not measured
          if (round >= 10) out[name].push(r.ms);
          out.bytes = r.bytes;
        }
      }
      agent.destroy();
      return out;
    } finally {
      await pgApp.close();
      await sqliteApp.close();
    }
  });
}

/** One GET on a keep-alive agent, timed to the end of the body; the body is counted, not kept. */
function timedGet(
  agent: http.Agent,
  url: string,
  headers: Record<string, string>,
): Promise<{ ms: number; status: number; bytes: number }> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    let bytes = 0;
    const req = http.get(url, { agent, headers }, (res) => {
      res.on('data', (chunk: Buffer) => (bytes += chunk.length));
      res.on('end', () => resolve({ ms: performance.now() - t0, status: res.statusCode ?? 0, bytes }));
      res.on('error', reject);
    });
    req.on('error', reject);
  });
}

const listCase = (name: string, side: 'sqlite' | 'postgres'): BenchCase => ({
  name,
  async run(ctx) {
    const f = await listFigures(ctx);
    const note = `GET v3 list, limit=100, client_env=live, ${(f.bytes / 1000).toFixed(0)} kB; ${f.conversations.toLocaleString('en-US')} seeded conversations; read models in ${side === 'sqlite' ? 'SQLite files' : 'PostgreSQL'}; ${f[side].length} requests alternating with the other app`;
    return { figure: median(f[side]), unit: 'ms', note };
  },
});

export const postgresCases: BenchCase[] = [
  { name: 'postgres.rebuild.sqlite', run: rebuildOnSqlite },
  { name: 'postgres.rebuild.postgres', run: rebuildOnPostgres },
  listCase('postgres.conversations.list.sqlite.p50', 'sqlite'),
  listCase('postgres.conversations.list.postgres.p50', 'postgres'),
];
