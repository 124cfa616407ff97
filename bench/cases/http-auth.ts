import { spawn } from 'node:child_process';
import type { BenchCase, Result } from '../lib/case';
import type { BenchContext } from '../lib/context';
import { AuthProbeController } from '../lib/auth-probe.controller';
import { startBenchApp, seedAccount } from '../lib/http-app';
import { median } from '../lib/measure';
import { profiled } from '../lib/profile';

const CONNECTIONS = 50;

/** autocannon as its own process, as the anchors were measured: the load must not share the server's event loop. */
function load(
  url: string,
  seconds: number,
  headers: Record<string, string> = {},
): Promise<{ average: number; non2xx: number }> {
  const cli = require.resolve('autocannon/autocannon.js');
  const args = [
    cli,
    '-j',
    '-c',
    String(CONNECTIONS),
    '-d',
    String(seconds),
    ...Object.entries(headers).flatMap(([k, v]) => ['-H', `${k}=${v}`]),
    url,
  ];
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'ignore'] });
    let out = '';
    child.stdout.on('data', (chunk) => (out += chunk));
    child.on('error', reject);
    child.on('exit', (code) => {
      try {
        const result = JSON.parse(out) as { requests: { average: number }; non2xx: number };
        resolve({ average: result.requests.average, non2xx: result.non2xx });
      } catch {
        reject(new Error(`autocannon exited ${code} without a result`));
      }
    });
  });
}

/**
 * The cost of authentication: the real app with two probe routes that differ only by the key guard
 * (same handler, same body), sent the very same request (with its `x-api-key` header), so the only
 * difference is the check. Measured as back-to-back pairs, in alternating order (open then authed,
 * authed then open): this machine's throughput drifts by a third between seconds (measured: one
 * pair's ratio ranged 0.60 to 1.24 while the pairs' median stayed at 1.00), so each pair's ratio is
 * taken within a few seconds of the same machine state, and the median of those ratios is the
 * guard's cost. A third series sends the open route no header at all: what carrying the header
 * costs on this machine (a diagnostic; it is transport, not the guard).
 */
async function measurePair(
  ctx: BenchContext,
): Promise<{ open: number[]; authed: number[]; bare: number[]; pairRatios: number[] }> {
  return ctx.shared('http-auth', async () => {
    const app = await startBenchApp(ctx.file('http-auth'), {}, [AuthProbeController]);
    try {
      const { key } = await seedAccount(app);
      const header = { 'x-api-key': key };
      const duration = ctx.quick ? 2 : 3;
      const pairs = ctx.quick ? 4 : 14;
      const series = {
        open: () => profiled('http.get.unauthenticated', () => load(`${app.url}/bench/probe/open`, duration, header)),
        authed: () => profiled('http.get.authenticated', () => load(`${app.url}/bench/probe/authed`, duration, header)),
        bare: () => load(`${app.url}/bench/probe/open`, duration),
      };
      const out = { open: [] as number[], authed: [] as number[], bare: [] as number[], pairRatios: [] as number[] };
      const run = async (name: keyof typeof series) => {
        const r = await series[name]();
        if (r.non2xx) throw new Error(`non-2xx answers on ${name}: ${r.non2xx}`);
        out[name].push(r.average);
        return r.average;
      };
      // warm-up: JIT and connection pools
      await load(`${app.url}/bench/probe/open`, 1, header);
      await load(`${app.url}/bench/probe/authed`, 1, header);
      ctx.log(`http auth: ${pairs} pairs (${duration} s per series, ${CONNECTIONS} connections)`);
      for (let pair = 0; pair < pairs; pair++) {
        const [first, second] = pair % 2 === 0 ? (['open', 'authed'] as const) : (['authed', 'open'] as const);
        const a = await run(first);
        const b = await run(second);
        out.pairRatios.push(first === 'authed' ? a / b : b / a);
        if (pair % 4 === 3) await run('bare');
      }
      return out;
    } finally {
      await app.close();
    }
  });
}

const result = (runs: number[], note: string): Result => ({ figure: median(runs), unit: 'req/s', runs, note });

export const httpAuthCases: BenchCase[] = [
  {
    name: 'http.get.unauthenticated',
    run: async (ctx) =>
      result(
        (await measurePair(ctx)).open,
        'GET probe route without the key check, same request (x-api-key header sent, unread); autocannon (own process), 50 connections',
      ),
  },
  {
    name: 'http.get.authenticated',
    run: async (ctx) =>
      result((await measurePair(ctx)).authed, 'same request to the route with the key check; alternating rounds'),
  },
  {
    name: 'http.get.authenticated.paired-ratio',
    run: async (ctx) => {
      const { pairRatios } = await measurePair(ctx);
      return {
        figure: median(pairRatios),
        unit: 'x',
        runs: pairRatios.map((r) => Math.round(r * 1000) / 1000),
        note: 'authenticated / unauthenticated throughput: the median of back-to-back pairs, alternating order (the guard keeps this share of throughput)',
      };
    },
  },
  {
    name: 'http.get.unauthenticated.no-header',
    run: async (ctx) =>
      result(
        (await measurePair(ctx)).bare,
        'diagnostic: the open route sent no header at all (what carrying the header costs)',
      ),
  },
];
