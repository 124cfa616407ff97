import { spawn } from 'node:child_process';
import type { BenchCase, Result } from '../lib/case';
import type { BenchContext } from '../lib/context';
import { AuthProbeController } from '../lib/auth-probe.controller';
import { startBenchApp, seedAccount } from '../lib/http-app';
import { median } from '../lib/measure';

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
 * (same handler, same body). Runs alternate A/B so both see the same machine noise; the ratio is
 * what the guard costs in throughput.
 */
async function measurePair(ctx: BenchContext): Promise<{ open: number[]; authed: number[] }> {
  return ctx.shared('http-auth', async () => {
    const app = await startBenchApp(ctx.file('http-auth'), {}, [AuthProbeController]);
    try {
      const { key } = await seedAccount(app);
      const duration = ctx.quick ? 3 : 8;
      const open: number[] = [];
      const authed: number[] = [];
      // warm-up: JIT and connection pools
      await load(`${app.url}/bench/probe/open`, 1);
      await load(`${app.url}/bench/probe/authed`, 1, { 'x-api-key': key });
      for (let run = 0; run < ctx.sizes.runs; run++) {
        ctx.log(`http auth run ${run + 1}/${ctx.sizes.runs} (${duration} s each, ${CONNECTIONS} connections)`);
        const a = await load(`${app.url}/bench/probe/open`, duration);
        const b = await load(`${app.url}/bench/probe/authed`, duration, { 'x-api-key': key });
        if (a.non2xx || b.non2xx) throw new Error(`non-2xx answers: open ${a.non2xx}, authed ${b.non2xx}`);
        open.push(a.average);
        authed.push(b.average);
      }
      return { open, authed };
    } finally {
      await app.close();
    }
  });
}

const result = (runs: number[], note: string): Result => ({ figure: median(runs), unit: 'req/s', runs, note });

export const httpAuthCases: BenchCase[] = [
  {
    name: 'http.get.unauthenticated',
    run: async (ctx) => result((await measurePair(ctx)).open, 'GET probe route without key check; autocannon (own process), 50 connections'),
  },
  {
    name: 'http.get.authenticated',
    run: async (ctx) => result((await measurePair(ctx)).authed, 'same route with the key check (x-api-key); alternating rounds'),
  },
];
