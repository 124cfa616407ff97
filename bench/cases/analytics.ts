import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import Database from 'better-sqlite3';
import type { BenchCase, Result } from '../lib/case';
import type { BenchContext } from '../lib/context';
import { startBenchApp } from '../lib/http-app';
import { median } from '../lib/measure';
import { dataset, get } from './conversations';

const DAY = 86_400_000;

/** The newest conversation start of the seeded project: the dataset is kept between runs, so "now" is not its end. */
function lastStart(dir: string, agentId: string): number {
  const rmDir = path.join(dir, 'read-models', 'conversations');
  const file = fs.readdirSync(rmDir).find((f) => f.endsWith('.sqlite'))!;
  const rm = new Database(path.join(rmDir, file), { readonly: true });
  try {
    const row = rm
      .prepare("SELECT max(started_at) AS at FROM conversation WHERE agent_id = ? AND environment = 'live'")
      .get(agentId.replace(/^PROJECT-/, '')) as { at: string };
    return Date.parse(row.at);
  } finally {
    rm.close();
  }
}

/**
 * The Analytics API (contract §23) over the seeded conversations (bench/data/, the conversations
 * group's 1M): a 30-day daily series and a 7-day hourly one ending at the dataset's newest
 * conversation, each answered `reps` times on one keep-alive connection after a warm-up.
 */
function figures(ctx: BenchContext): Promise<Record<string, Result>> {
  return ctx.shared('analytics-figures', async () => {
    const data = await dataset(ctx);
    const app = await startBenchApp(data.dir);
    try {
      // the first start after the analytics read model appeared builds it from the whole log
      const t0 = performance.now();
      await app.settled();
      ctx.log(`analytics: the app settled in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
      const end = Math.ceil((lastStart(data.dir, data.agentId) + 1) / DAY) * DAY;
      const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
      const headers = { 'x-api-key': data.key };
      const base = `${app.url}/v1/${data.accountId}/${data.agentId}/analytics`;
      const reps = ctx.quick ? 10 : 60;
      const out: Record<string, Result> = {};
      for (const [name, days, granularity] of [
        ['analytics.series.30-day-daily.p50', 30, 'day'],
        ['analytics.series.7-day-hourly.p50', 7, 'hour'],
      ] as const) {
        const url = `${base}?granularity=${granularity}&start_time=${new Date(end - days * DAY).toISOString()}&end_time=${new Date(end).toISOString()}`;
        const ms: number[] = [];
        let body = 0;
        let conversations = 0;
        for (let i = 0; i < reps + 5; i++) {
          const r = await get(agent, url, headers);
          if (r.status !== 200) throw new Error(`GET ${url}: ${r.status}`);
          if (i >= 5) ms.push(r.ms);
          body = r.bytes;
        }
        const answer = (
          await app.call<{ totals: { conversations: number } }>('GET', url.slice(app.url.length), headers)
        ).totals;
        conversations = answer.conversations;
        out[name] = {
          figure: median(ms),
          unit: 'ms',
          runs: ms.map((v) => +v.toFixed(2)),
          note: `GET analytics, ${days} days by ${granularity}, client_env=live, every channel; ${conversations.toLocaleString('en-US')} conversations in range of ${data.conversations.toLocaleString('en-US')} seeded; ${(body / 1000).toFixed(1)} kB`,
        };
      }
      return out;
    } finally {
      await app.close();
    }
  });
}

export const analyticsCases: BenchCase[] = [
  'analytics.series.30-day-daily.p50',
  'analytics.series.7-day-hourly.p50',
].map((name) => ({ name, run: async (ctx) => (await figures(ctx))[name] }));
