import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import Database from 'better-sqlite3';
import { BUCKET_MS } from '../../projections/concurrency/queries';
import type { BenchCase } from '../lib/case';
import type { BenchContext } from '../lib/context';
import { startBenchApp } from '../lib/http-app';
import { median } from '../lib/measure';
import { dataset, get } from './conversations';

const WEEK_MS = 7 * 24 * 3600 * 1000;

interface Figures {
  p50: number;
  p99: number;
  requests: number;
  /** seconds from the app's start to every read model at the log's head */
  settleSeconds: number;
  /** whether the concurrency read model had to be built from the start of the log in that time */
  built: boolean;
  window: { start: string; end: string };
  conversations: number;
  /** the unfiltered series' busiest interval: a window with nothing in it would measure nothing */
  peak: number;
  byQuery: Record<string, number>;
}

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
};

/** The concurrency read model's SQLite file in a data dir, if it has been built there. */
function readModelFile(dir: string): string | null {
  const folder = path.join(dir, 'read-models', 'concurrency');
  if (!fs.existsSync(folder)) return null;
  const file = fs.readdirSync(folder).find((f) => f.endsWith('.sqlite'));
  return file ? path.join(folder, file) : null;
}

/**
 * The concurrency series (contract §17, docs/api/concurrency.md) over the conversations cases'
 * seeded dataset (BENCH_CONVERSATIONS, kept in bench/data/): the last 7 days of the data, 2,016
 * five-minute intervals a request, with each filter and slice in turn. A dataset seeded before
 * the concurrency read model existed gets it built when the app starts; the case waits for that
 * and says how long it took.
 */
async function measure(ctx: BenchContext): Promise<Figures> {
  return ctx.shared('concurrency', async () => {
    const data = await dataset(ctx);
    const built = readModelFile(data.dir) === null;
    if (built) ctx.log('concurrency: no concurrency read model in the dataset yet: the app builds it at start');
    const t0 = performance.now();
    const app = await startBenchApp(data.dir);
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    try {
      await app.settled();
      const settleSeconds = (performance.now() - t0) / 1000;
      ctx.log(`concurrency: read models at the log's head ${settleSeconds.toFixed(1)} s after the start`);

      // The window: the week up to the last interval the dataset has a live conversation in.
      const rm = new Database(readModelFile(data.dir)!, { readonly: true });
      const last = rm.prepare("SELECT max(bucket) AS b FROM concurrency_bucket WHERE environment = 'live'").get() as {
        b: number | null;
      };
      const value = (column: string) =>
        (
          rm
            .prepare(
              `SELECT ${column} AS v FROM concurrency_bucket WHERE environment = 'live' AND ${column} != '' LIMIT 1`,
            )
            .get() as { v: string } | undefined
        )?.v;
      const language = value('language');
      const phone = value('phone_number');
      const variant = value('variant_id');
      rm.close();
      if (last.b === null || !language || !phone || !variant)
        throw new Error('the concurrency read model holds no live conversation with a language, number and variant');
      const endMs = (last.b + 1) * BUCKET_MS;
      const window = { start: new Date(endMs - WEEK_MS).toISOString(), end: new Date(endMs).toISOString() };

      const base = `${app.url}/v1/${data.accountId}/${data.agentId}/conversations/concurrency?start_time=${window.start}&end_time=${window.end}`;
      const queries: Record<string, string> = {
        all: '',
        voice: '&channel=VOICE-SIP',
        'chat+webchat': '&channel=CHAT&channel=WEBCHAT',
        variant: `&variant_id=${encodeURIComponent(variant)}`,
        language: `&language=${encodeURIComponent(language)}`,
        phone: `&phone_number=${encodeURIComponent(phone)}`,
        sandbox: '&client_env=sandbox',
        'slice:variant': '&slice_by=variant',
        'slice:language': '&slice_by=language',
        'slice:phone_number': '&slice_by=phone_number&channel=VOICE-SIP&channel=SMS',
        'slice:channel': '&slice_by=channel',
      };
      const headers = { 'x-api-key': data.key };
      const names = Object.keys(queries);
      let peak = 0;
      // warm-up: each query once, checked
      for (const name of names) {
        const r = await get(agent, base + queries[name], headers);
        if (r.status !== 200) throw new Error(`concurrency ${name}: ${r.status}`);
      }
      const all = await fetch(base, { headers }).then(
        (r) => r.json() as Promise<{ intervals: Array<{ max_concurrent_conversations: number }> }>,
      );
      if (all.intervals.length < WEEK_MS / BUCKET_MS)
        throw new Error(`the unfiltered series has ${all.intervals.length} intervals, not a week's`);
      for (const i of all.intervals) peak = Math.max(peak, i.max_concurrent_conversations);
      if (peak === 0) throw new Error(`no conversation in progress in ${window.start} .. ${window.end}`);

      const requests = ctx.quick ? 55 : 110;
      const ms: number[] = [];
      const byName = new Map<string, number[]>(names.map((n) => [n, []]));
      for (let i = 0; i < requests; i++) {
        const name = names[i % names.length];
        const r = await get(agent, base + queries[name], headers);
        if (r.status !== 200) throw new Error(`concurrency ${name}: ${r.status}`);
        ms.push(r.ms);
        byName.get(name)!.push(r.ms);
      }
      return {
        p50: median(ms),
        p99: percentile(ms, 99),
        requests,
        settleSeconds,
        built,
        window,
        conversations: data.conversations,
        peak,
        byQuery: Object.fromEntries([...byName].map(([n, v]) => [n, +median(v).toFixed(2)])),
      };
    } finally {
      agent.destroy();
      await app.close();
    }
  });
}

const slowest = (f: Figures) =>
  Object.entries(f.byQuery)
    .sort((a, b) => b[1] - a[1])
    .slice(0, 3)
    .map(([n, v]) => `${n} ${v.toFixed(1)} ms`)
    .join(', ');

export const concurrencyCases: BenchCase[] = [
  {
    name: 'concurrency.series-7d.p50',
    async run(ctx) {
      const f = await measure(ctx);
      return {
        figure: f.p50,
        unit: 'ms',
        note: `GET concurrency, 7 days x 5 min (${f.window.start} .. ${f.window.end}), ${f.requests} requests over 11 filters and slices in turn, ${f.conversations.toLocaleString('en-US')} seeded conversations (peak ${f.peak} at once); slowest medians: ${slowest(f)}; ${f.built ? `concurrency read model built at start: read models at head in ${f.settleSeconds.toFixed(1)} s` : `read model already built (app settled in ${f.settleSeconds.toFixed(1)} s)`}`,
        details: { ...f },
      };
    },
  },
  {
    name: 'concurrency.series-7d.p99',
    async run(ctx) {
      const f = await measure(ctx);
      return { figure: f.p99, unit: 'ms', note: 'diagnostic: the same requests as concurrency.series-7d.p50' };
    },
  },
];
