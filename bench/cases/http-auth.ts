import autocannon from 'autocannon';
import type { BenchCase, Result } from '../lib/case';
import type { BenchContext } from '../lib/context';
import { AuthProbeController } from '../lib/auth-probe.controller';
import { startBenchApp, seedAccount } from '../lib/http-app';
import { median } from '../lib/measure';

const CONNECTIONS = 50;

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
      const duration = ctx.quick ? 3 : 10;
      const open: number[] = [];
      const authed: number[] = [];
      // warm-up: JIT and connection pools
      await autocannon({ url: `${app.url}/bench/probe/open`, connections: CONNECTIONS, duration: 1 });
      await autocannon({ url: `${app.url}/bench/probe/authed`, connections: CONNECTIONS, duration: 1, headers: { 'x-api-key': key } });
      for (let run = 0; run < ctx.sizes.runs; run++) {
        ctx.log(`http auth run ${run + 1}/${ctx.sizes.runs} (${duration} s each, ${CONNECTIONS} connections)`);
        const a = await autocannon({ url: `${app.url}/bench/probe/open`, connections: CONNECTIONS, duration });
        const b = await autocannon({ url: `${app.url}/bench/probe/authed`, connections: CONNECTIONS, duration, headers: { 'x-api-key': key } });
        if (a.non2xx || b.non2xx) throw new Error(`non-2xx answers: open ${a.non2xx}, authed ${b.non2xx}`);
        open.push(a.requests.average);
        authed.push(b.requests.average);
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
    run: async (ctx) => result((await measurePair(ctx)).open, 'GET probe route without guard, autocannon 50 connections'),
  },
  {
    name: 'http.get.authenticated',
    run: async (ctx) => result((await measurePair(ctx)).authed, 'same route behind the key guard (x-api-key), same process'),
  },
];
