import { openSealedSqliteLog } from '../../src/cli/open-sealed-store';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import Database from 'better-sqlite3';
import { conversationsProjection } from '../../projections/conversations/conversations.projection';
import { Cursors } from '../../src/conversations-api/cursor';
import { parseListQuery } from '../../src/conversations-api/list-query';
import { sqlitePosition } from '../../src/event-store/sqlite/rows';
import { ServerSecret } from '../../src/platform/auth/server-secret';
import { catchUp } from '../../src/read-models/generations/catch-up';
import { openReadModel } from '../../src/read-models/generations/open-read-model';
import { seed } from '../../src/cli/seed/seed';
import type { BenchCase, Result } from '../lib/case';
import type { BenchContext } from '../lib/context';
import { startBenchApp, type BenchApp } from '../lib/http-app';
import { median } from '../lib/measure';
import { removeDb, repoRoot } from '../lib/paths';

interface Dataset {
  dir: string;
  conversations: number;
  accountId: string;
  agentId: string;
  key: string;
  seedSeconds: number;
  projectionSeconds: number;
  events: number;
  eventsBytes: number;
  readModelBytes: number;
}

/** Conversations seeded for the read-side cases: the 1,000,000, or BENCH_CONVERSATIONS. */
function datasetSize(ctx: BenchContext): number {
  if (ctx.quick) return 5_000;
  return Number(process.env.BENCH_CONVERSATIONS ?? 1_000_000);
}

const fileSize = (file: string) => (fs.existsSync(file) ? fs.statSync(file).size : 0);

/**
 * One project's seeded history (npm run seed's code, one agent, 90 days), kept in bench/data/
 * between runs: seeding a million conversations takes a while, and the cases only read it.
 */
export function dataset(ctx: BenchContext): Promise<Dataset> {
  return ctx.shared('conversations-dataset', async () => {
    const conversations = datasetSize(ctx);
    const dir = path.join(repoRoot(), 'bench', 'data', `conversations-${conversations}`);
    const marker = path.join(dir, 'bench-dataset.json');
    if (fs.existsSync(marker)) {
      ctx.log(`conversations: reusing the seeded dataset in ${path.relative(process.cwd(), dir)}`);
      return JSON.parse(fs.readFileSync(marker, 'utf8')) as Dataset;
    }
    fs.rmSync(dir, { recursive: true, force: true });
    ctx.log(
      `conversations: seeding ${conversations.toLocaleString('en-US')} conversations into ${path.relative(process.cwd(), dir)} (kept for later runs)`,
    );
    const result = await seed({
      dataDir: dir,
      conversations,
      agents: 1,
      days: 90,
      seed: 1,
      concurrency: 256,
      liveShare: 0.95,
      log: (line) => ctx.log(`seed: ${line}`),
    });
    const events = new Database(path.join(dir, 'events.sqlite'), { readonly: true });
    const count = (events.prepare('SELECT count(*) AS n FROM events').get() as { n: number }).n;
    events.close();
    const rmDir = path.join(dir, 'read-models', 'conversations');
    const data: Dataset = {
      dir,
      conversations,
      accountId: result.accountId,
      agentId: result.agents[0].agentId,
      key: result.keys[0].key,
      seedSeconds: result.seconds,
      projectionSeconds: result.projectionSeconds,
      events: count,
      eventsBytes: fileSize(path.join(dir, 'events.sqlite')) + fileSize(path.join(dir, 'events.sqlite-wal')),
      readModelBytes: fs.readdirSync(rmDir).reduce((sum, f) => sum + fileSize(path.join(rmDir, f)), 0),
    };
    fs.writeFileSync(marker, JSON.stringify(data, null, 2));
    return data;
  });
}

interface Timed {
  ms: number;
  status: number;
  bytes: number;
  firstByteMs: number;
}

/** One GET on a keep-alive agent, timed to the first body byte and to the end; the body is counted, not kept. */
export function get(agent: http.Agent, url: string, headers: Record<string, string>): Promise<Timed> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    let firstByteMs = -1;
    let bytes = 0;
    const req = http.get(url, { agent, headers }, (res) => {
      res.on('data', (chunk: Buffer) => {
        if (firstByteMs < 0) firstByteMs = performance.now() - t0;
        bytes += chunk.length;
      });
      res.on('end', () => resolve({ ms: performance.now() - t0, status: res.statusCode ?? 0, bytes, firstByteMs }));
      res.on('error', reject);
    });
    req.on('error', reject);
  });
}

interface Figures {
  [name: string]: Result;
}

async function measureAll(ctx: BenchContext): Promise<Figures> {
  return ctx.shared('conversations-figures', async () => {
    const data = await dataset(ctx);
    const app: BenchApp = await startBenchApp(data.dir);
    // Measure the steady state: after a start, process managers first read what they have not seen.
    await app.settled();
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const headers = { 'x-api-key': data.key };
    const base = `${app.url}/v3/${data.accountId}/${data.agentId}/conversations`;
    const out: Figures = {};
    const timed = async (url: string, times: number): Promise<number[]> => {
      const ms: number[] = [];
      for (let i = 0; i < times; i++) {
        const r = await get(agent, url, headers);
        if (r.status !== 200) throw new Error(`GET ${url}: ${r.status}`);
        ms.push(r.ms);
      }
      return ms;
    };
    const admin = { 'x-operator-token': app.operatorToken };
    try {
      // The pages are measured as a project answers by default, unstreamed. A dataset kept from an
      // earlier run still has streaming on from that run's last case: its pages were measured streamed.
      await app.call('PUT', `/admin/v1/agents/${data.agentId}/settings`, admin, { chunked_streaming: false });
      const reps = ctx.quick ? 10 : 40;
      await timed(`${base}?limit=100`, 5);
      const list = await timed(`${base}?limit=100`, reps);
      out['conversations.list.limit-100.p50'] = {
        figure: median(list),
        unit: 'ms',
        runs: list.map((v) => +v.toFixed(2)),
        note: `GET v3 list, limit=100, client_env=live, no search; ${data.conversations.toLocaleString('en-US')} seeded conversations`,
      };

      // Cursors the server would hand out after `depth` rows: found in the read model, signed with the data dir's secret.
      const rmFile = fs
        .readdirSync(path.join(data.dir, 'read-models', 'conversations'))
        .find((f) => f.endsWith('.sqlite'))!;
      const rm = new Database(path.join(data.dir, 'read-models', 'conversations', rmFile), { readonly: true });
      const agentBare = data.agentId.replace(/^PROJECT-/, '');
      const live = (
        rm
          .prepare("SELECT count(*) AS n FROM conversation WHERE agent_id = ? AND environment = 'live'")
          .get(agentBare) as { n: number }
      ).n;
      const depth = Math.min(900_000, Math.floor(live * 0.9));
      const cursors = new Cursors(ServerSecret.resolve(undefined, data.dir));
      const cursorAt = (rows: number) => {
        const row = rm
          .prepare(
            "SELECT started_at, id FROM conversation WHERE agent_id = ? AND environment = 'live' ORDER BY started_at DESC, id DESC LIMIT 1 OFFSET ?",
          )
          .get(agentBare, rows - 1) as { started_at: string; id: string };
        return encodeURIComponent(
          cursors.encode(parseListQuery('v3', { limit: '100' }), agentBare, {
            after: { startedAt: row.started_at, id: row.id },
          }),
        );
      };
      // The newest conversations are still going on, or ended within minutes because they were
      // short: the first page carries about 40% of the bytes of a page of finished ones. The page
      // just past them (depth SHALLOW) holds what a deep page holds, so it is what depth is judged against.
      const SHALLOW = Math.min(2_500, Math.floor(live * 0.01));
      const shallowCursor = cursorAt(SHALLOW);
      const deepCursor = cursorAt(depth);
      rm.close();
      const pages = { first: [] as number[], shallow: [] as number[], deep: [] as number[] };
      const bytes = { first: 0, shallow: 0, deep: 0 };
      for (let i = 0; i < reps; i++) {
        for (const [name, url] of [
          ['first', `${base}?limit=100`],
          ['shallow', `${base}?limit=100&cursor=${shallowCursor}`],
          ['deep', `${base}?limit=100&cursor=${deepCursor}`],
        ] as const) {
          const r = await get(agent, url, headers);
          if (r.status !== 200) throw new Error(`${name} page answered ${r.status}`);
          pages[name].push(r.ms);
          bytes[name] = r.bytes;
        }
      }
      const kB = (n: number) => `${(n / 1000).toFixed(0)} kB`;
      out['conversations.page.first.p50'] = {
        figure: median(pages.first),
        unit: 'ms',
        note: `diagnostic: the first page, limit=100, ${kB(bytes.first)} (conversations still going on or just ended, short); deep/first = ${(median(pages.deep) / median(pages.first)).toFixed(2)}x`,
      };
      out['conversations.page.cursor-shallow.p50'] = {
        figure: median(pages.shallow),
        unit: 'ms',
        note: `cursor page at depth ${SHALLOW.toLocaleString('en-US')}, the first page of finished conversations, limit=100, ${kB(bytes.shallow)}`,
      };
      out['conversations.page.cursor-deep.p50'] = {
        figure: median(pages.deep),
        unit: 'ms',
        note: `cursor page at depth ${depth.toLocaleString('en-US')} of ${live.toLocaleString('en-US')} live conversations, limit=100, ${kB(bytes.deep)}; pages taken in turn`,
      };
      const offset = await timed(`${base}?limit=100&offset=${depth}`, ctx.quick ? 2 : 5);
      out['conversations.page.offset-deep.p50'] = {
        figure: median(offset),
        unit: 'ms',
        note: `diagnostic: offset=${depth.toLocaleString('en-US')} (legacy pagination) at the same depth`,
      };

      // Chunked streaming of 5,000 conversations with transcripts: first byte and this process's RSS growth.
      await app.call('PUT', `/admin/v1/agents/${data.agentId}/settings`, admin, { chunked_streaming: true });
      await timed(`${base}?limit=100`, 5);
      const streamedList = await timed(`${base}?limit=100`, reps);
      out['conversations.list.limit-100.streamed.p50'] = {
        figure: median(streamedList),
        unit: 'ms',
        runs: streamedList.map((v) => +v.toFixed(2)),
        note: 'diagnostic: the same page as conversations.list.limit-100.p50, with chunked streaming on',
      };
      const firstBytes: number[] = [];
      const growth: number[] = [];
      let streamed: Timed | null = null;
      for (let run = 0; run < (ctx.quick ? 1 : 3); run++) {
        global.gc?.();
        const before = process.memoryUsage.rss();
        let peak = before;
        const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage.rss())), 5);
        streamed = await get(agent, `${base}?limit=5000&include_latency=true`, headers);
        clearInterval(sampler);
        if (streamed.status !== 200) throw new Error(`streamed list: ${streamed.status}`);
        firstBytes.push(streamed.firstByteMs);
        growth.push((peak - before) / 1e6);
      }
      out['conversations.stream.limit-5000.first-byte'] = {
        figure: median(firstBytes),
        unit: 'ms',
        runs: firstBytes,
        note: `limit=5000 with transcripts, chunked; ${(streamed!.bytes / 1e6).toFixed(1)} MB in ${(streamed!.ms / 1000).toFixed(2)} s`,
      };
      out['conversations.stream.limit-5000.rss-growth'] = {
        figure: median(growth),
        unit: 'MB',
        runs: growth.map((g) => +g.toFixed(1)),
        note: 'server RSS peak minus RSS before the request (server and client share this process; the client keeps no body)',
      };

      const now = Date.now();
      const range = `start_time=${new Date(now - 90 * 86_400_000).toISOString()}&end_time=${new Date(now + 60_000).toISOString()}`;
      const transcriptQueries = [
        'refund',
        'cancel my order',
        'password',
        'delivery late',
        'gift card balance',
        'store hours',
      ];
      const semanticQueries = [
        'refunds',
        'cancelation',
        'pasword reset',
        'deliveries arriving',
        'warranty claims',
        'discount vouchers',
      ];
      const search = async (type: string, queries: string[]) => {
        const ms: number[] = [];
        for (let i = 0; i < (ctx.quick ? 12 : 36); i++)
          ms.push(
            ...(await timed(
              `${base}?query_type=${type}&query=${encodeURIComponent(queries[i % queries.length])}&${range}`,
              1,
            )),
          );
        return ms;
      };
      await search('transcript', transcriptQueries.slice(0, 2));
      const transcript = await search('transcript', transcriptQueries);
      out['conversations.search.transcript.p50'] = {
        figure: median(transcript),
        unit: 'ms',
        note: `over 90 days, limit 5, ${transcriptQueries.length} queries in turn`,
      };
      const semantic = await search('semantic', semanticQueries);
      out['conversations.search.semantic.p50'] = {
        figure: median(semantic),
        unit: 'ms',
        note: `over 90 days, limit 5, inflected and misspelt queries`,
      };

      out['conversations.seed'] = {
        figure: data.conversations / data.seedSeconds,
        unit: 'conv/s',
        note: `seeded ${data.conversations.toLocaleString('en-US')} conversations (${data.events.toLocaleString('en-US')} events) in ${data.seedSeconds.toFixed(0)} s, read models caught up ${data.projectionSeconds.toFixed(0)} s later; events.sqlite ${(data.eventsBytes / 1e9).toFixed(2)} GB, conversations read model ${(data.readModelBytes / 1e9).toFixed(2)} GB`,
      };
    } finally {
      agent.destroy();
      await app.close();
    }
    Object.assign(out, await rebuildVsRaw(ctx, data));
    return out;
  });
}

/**
 * Rebuilding the conversations read model from the log (a prefix of it, to bound the time) against
 * a raw batched insert of the rows that rebuild produced, into the same schema (FTS triggers included).
 */
async function rebuildVsRaw(ctx: BenchContext, data: Dataset): Promise<Figures> {
  const limitEvents = ctx.quick ? 30_000 : 1_000_000;
  const store = await openSealedSqliteLog(data.dir);
  const rebuilt = ctx.file('conversations-rebuild.sqlite');
  const raw = ctx.file('conversations-raw.sqlite');
  try {
    const head = Math.min(limitEvents, data.events);
    const until = sqlitePosition(head);
    const source = await openReadModel(conversationsProjection, rebuilt);
    const t0 = performance.now();
    await catchUp(source, conversationsProjection, store, { until });
    const rebuildS = (performance.now() - t0) / 1000;
    await source.destroy();

    const from = new Database(rebuilt, { readonly: true });
    const conversations = from.prepare('SELECT * FROM conversation').all() as Array<Record<string, unknown>>;
    const turns = from.prepare('SELECT * FROM conversation_turn ORDER BY id').all() as Array<Record<string, unknown>>;
    from.close();
    await openReadModel(conversationsProjection, raw).then((s) => s.destroy());
    const db = new Database(raw);
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
    const insertC = db.prepare(
      `INSERT INTO conversation (${Object.keys(conversations[0]).join(', ')}) VALUES (${Object.keys(conversations[0])
        .map(() => '?')
        .join(', ')})`,
    );
    const insertT = db.prepare(
      `INSERT INTO conversation_turn (${Object.keys(turns[0]).join(', ')}) VALUES (${Object.keys(turns[0])
        .map(() => '?')
        .join(', ')})`,
    );
    const all: Array<[Database.Statement, Record<string, unknown>]> = [
      ...conversations.map((r) => [insertC, r] as [Database.Statement, Record<string, unknown>]),
      ...turns.map((r) => [insertT, r] as [Database.Statement, Record<string, unknown>]),
    ];
    const t1 = performance.now();
    for (let i = 0; i < all.length; i += 1000) {
      db.transaction(() => {
        for (const [statement, row] of all.slice(i, i + 1000)) statement.run(Object.values(row));
      })();
    }
    const rawS = (performance.now() - t1) / 1000;
    db.close();
    const rows = all.length;
    return {
      'conversations.rebuild': {
        figure: rows / rebuildS,
        unit: 'rows/s',
        note: `catchUp of the conversations projection over the first ${head.toLocaleString('en-US')} events: ${rows.toLocaleString('en-US')} rows (${conversations.length.toLocaleString('en-US')} conversations) in ${rebuildS.toFixed(1)} s`,
      },
      'conversations.raw-insert.batched-1000': {
        figure: rows / rawS,
        unit: 'rows/s',
        note: `raw better-sqlite3 insert of the same final rows, 1000 per tx, same schema and FTS triggers, in ${rawS.toFixed(1)} s`,
      },
    };
  } finally {
    await store.close();
    removeDb(rebuilt);
    removeDb(raw);
  }
}

const figure = (name: string): BenchCase => ({ name, run: async (ctx) => (await measureAll(ctx))[name] });

export const conversationsCases: BenchCase[] = [
  'conversations.seed',
  'conversations.list.limit-100.p50',
  'conversations.list.limit-100.streamed.p50',
  'conversations.page.first.p50',
  'conversations.page.cursor-shallow.p50',
  'conversations.page.cursor-deep.p50',
  'conversations.page.offset-deep.p50',
  'conversations.stream.limit-5000.first-byte',
  'conversations.stream.limit-5000.rss-growth',
  'conversations.search.transcript.p50',
  'conversations.search.semantic.p50',
  'conversations.rebuild',
  'conversations.raw-insert.batched-1000',
].map(figure);
