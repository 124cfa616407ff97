import { spawn } from 'node:child_process';
import type { BenchCase, Result } from '../lib/case';
import type { BenchContext } from '../lib/context';
import { AuthProbeController } from '../lib/auth-probe.controller';
import { startBenchApp, seedAccount } from '../lib/http-app';
import { median } from '../lib/measure';
import { profiled } from '../lib/profile';

const CONNECTIONS = 50;

/** autocannon as its own process, as the anchors were measured: the load must not share the server's event loop. */
function load(url: string, seconds: number, headers: Record<string, string> = {}): Promise<{ average: number; non2xx: number }> {
  const cli = require.resolve('autocannon/autocannon.js');
  const args = [cli, '-j', '-c', String(CONNECTIONS), '-d', String(seconds), ...Object.entries(headers).flatMap(([k, v]) => ['-H', `${k}=${v}`]), url];
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
 * difference is the check. A third series sends the open route no header at all: what carrying the
 * header costs on this machine (a diagnostic; it is transport, not the guard). Alternating rounds,
 * so all see the same machine noise.
 */
async function measurePair(ctx: BenchContext): Promise<{ open: number[]; authed: number[]; bare: number[] }> {
  return ctx.shared('http-auth', async () => {
    const app = await startBenchApp(ctx.file('http-auth'), {}, [AuthProbeController]);
    try {
      const { key } = await seedAccount(app);
      const header = { 'x-api-key': key };
      const duration = ctx.quick ? 3 : 6;
      const runs = ctx.quick ? 1 : 5;
      const series = {
        open: () => profiled('http.get.unauthenticated', () => load(`${app.url}/bench/probe/open`, duration, header)),
        authed: () => profiled('http.get.authenticated', () => load(`${app.url}/bench/probe/authed`, duration, header)),
        bare: () => load(`${app.url}/bench/probe/open`, duration),
      };
      const out: Record<keyof typeof series, number[]> = { open: [], authed: [], bare: [] };
      // warm-up: JIT and connection pools
      await load(`${app.url}/bench/probe/open`, 1, header);
      await load(`${app.url}/bench/probe/authed`, 1, header);
      const names = Object.keys(series) as Array<keyof typeof series>;
      for (let round = 0; round < runs; round++) {
        ctx.log(`http auth round ${round + 1}/${runs} (${duration} s per series, ${CONNECTIONS} connections)`);
        for (const name of round % 2 === 0 ? names : [...names].reverse()) {
          const r = await series[name]();
          if (r.non2xx) throw new Error(`non-2xx answers on ${name}: ${r.non2xx}`);
          out[name].push(r.average);
        }
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
    run: async (ctx) => result((await measurePair(ctx)).open, 'GET probe route without the key check, same request (x-api-key header sent, unread); autocannon (own process), 50 connections'),
  },
  {
    name: 'http.get.authenticated',
    run: async (ctx) => result((await measurePair(ctx)).authed, 'same request to the route with the key check; alternating rounds'),
  },
  {
    name: 'http.get.unauthenticated.no-header',
    run: async (ctx) => result((await measurePair(ctx)).bare, 'diagnostic: the open route sent no header at all (what carrying the header costs)'),
  },
];
