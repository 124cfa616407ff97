import { BODY_LIMIT_BYTES } from '../../src/platform/config/config';
import type { BenchCase, Result } from '../lib/case';
import type { BenchContext } from '../lib/context';
import type { BodyFloodResult } from '../lib/body-flood';
import type { FloodServer } from '../lib/flood-server';
import {
  B_ADDRESS,
  B_RATE,
  bRoutes,
  describeProbe,
  failures,
  lib,
  processCpuMs,
  settle,
  startServer,
  STOP_MS,
} from '../lib/flood-server-process';
import { spawnLineChild } from '../lib/line-child';
import { median } from '../lib/measure';
import { probeTenant, type ProbeResult } from '../lib/tenant-probe';

/** Tenant A's parallel loops, as in issue 47, and the address they come from (not B's). */
const A_LOOPS = 16;
const A_ADDRESS = '127.0.0.2';
/** The cases that need the refused-body phases. */
const REFUSED_CASES = ['edge.flood.body-refused.p99', 'edge.flood.body-refused.p99-ratio'];
/** A flood that has not answered once in this long is broken, not slow. */
const FIRST_ANSWER_MS = 60_000;

type FloodLine = { event: 'flooding' } | ({ event: 'done' } & BodyFloodResult);

/** B's probe while A floods with `shapes` (lib/body-flood.ts), from A's first answer to the probe's end. */
async function underFlood(server: FloodServer, shapes: string, seconds: number): Promise<Flooded> {
  const args = [server.url, server.a.accountId, server.a.key, String(A_LOOPS), shapes, String(BODY_LIMIT_BYTES)];
  const cpuBefore = processCpuMs(server.pid);
  const flood = spawnLineChild<FloodLine>([lib('body-flood.js'), ...args, A_ADDRESS, String(seconds + 120)]);
  try {
    await flood.waitFor((l) => l.event === 'flooding', FIRST_ANSWER_MS, `A's flood (${shapes}) answering`);
    const b = await probeTenant({
      url: server.url,
      routes: bRoutes(server),
      rate: B_RATE,
      seconds,
      fresh: false,
      localAddress: B_ADDRESS,
    });
    const last = await flood.stop(STOP_MS);
    if (last?.event !== 'done') throw new Error(`A's flood (${shapes}) ended without its figures`);
    return { b, a: last, serverCpuMs: processCpuMs(server.pid) - cpuBefore };
  } finally {
    await flood.stop(STOP_MS);
  }
}

interface Flooded {
  b: ProbeResult;
  a: BodyFloodResult;
  /** the server's CPU (every thread) from A's start to its last answer, B's requests included */
  serverCpuMs: number;
}

interface BodyRound {
  alone: ProbeResult;
  flooded?: Flooded;
  refused?: Flooded;
}

/** The two mixes of A's bodies (lib/flood-bodies.ts): ~1 MiB bodies the API reads, and bodies refused at the edge. */
const MIXES = { flooded: 'items,string', refused: 'too-large,wrong-type' } as const;

/**
 * Issue 47's first flood as paired rounds on one server process: B's `GET /v1/agents/{id}` (100/s,
 * open loop, keep-alive) alone, then while A's 16 loops post ~1 MiB bodies, then while they post
 * refused ones; the order reverses every round so both sides of a ratio see the same drift.
 */
async function bodyRounds(ctx: BenchContext): Promise<BodyRound[]> {
  return ctx.shared('edge-flood-body', async () => {
    const rounds = ctx.quick ? 1 : 3;
    const seconds = ctx.quick ? 4 : 10;
    // the refused phases only when one of their cases runs (--only matches whole case names)
    const refused = REFUSED_CASES.some((name) => ctx.selected(name));
    const server = await startServer(ctx, 'edge-flood-body');
    try {
      const { info } = server;
      // warm-up: the GET and the refusal paths compiled before anything is timed
      await probeTenant({
        url: info.url,
        routes: bRoutes(info),
        rate: B_RATE,
        seconds: 2,
        fresh: false,
        localAddress: B_ADDRESS,
      });
      await underFlood(info, MIXES.flooded, 2);
      if (refused) await underFlood(info, MIXES.refused, 2);
      const out: BodyRound[] = [];
      for (let round = 0; round < rounds; round++) {
        const phases: Array<keyof BodyRound> = ['alone', 'flooded', ...(refused ? (['refused'] as const) : [])];
        const r = {} as BodyRound;
        for (const phase of round % 2 === 0 ? phases : [...phases].reverse()) {
          await settle(ctx, server);
          if (phase === 'alone')
            r.alone = await probeTenant({
              url: info.url,
              routes: bRoutes(info),
              rate: B_RATE,
              seconds,
              fresh: false,
              localAddress: B_ADDRESS,
            });
          else r[phase] = await underFlood(info, MIXES[phase], seconds);
          ctx.log(`edge flood round ${round + 1}, ${phase}: ${describePhase(r[phase]!)}`);
        }
        out.push(r);
      }
      return out;
    } finally {
      await server.child.stop(STOP_MS);
    }
  });
}

function describePhase(phase: ProbeResult | Flooded): string {
  const own = describeProbe('b' in phase ? phase.b : phase);
  return 'a' in phase ? `${own}; A ${describeA(phase)}` : own;
}

function describeA({ a, serverCpuMs }: Flooded): string {
  const counts = (record: Record<string, number>) =>
    Object.entries(record)
      .map(([k, n]) => `${k} x${n}`)
      .join(', ');
  const mb = a.bytesSent / 1024 / 1024 / a.seconds;
  return `${a.requests} requests in ${a.seconds.toFixed(1)} s (${mb.toFixed(1)} MiB/s sent; answers ${counts(a.statuses) || 'none'}${Object.keys(a.errors).length ? `; no answer ${counts(a.errors)}` : ''}; A's own p50 ${a.p50.toFixed(0)} ms; server CPU ${(serverCpuMs / Math.max(1, a.requests)).toFixed(1)} ms per A request)`;
}

const ms = (values: number[]) => values.map((v) => v.toFixed(1)).join(', ');

function p99Case(name: string, phase: 'alone' | 'flooded' | 'refused', what: string): BenchCase {
  return {
    name,
    run: async (ctx): Promise<Result> => {
      const rounds = await bodyRounds(ctx);
      const b = rounds.map((r) => (phase === 'alone' ? r.alone : r[phase]!.b));
      const a = phase === 'alone' ? [] : rounds.map((r) => r[phase]!);
      return {
        figure: median(b.map((x) => x.p99)),
        unit: 'ms',
        runs: b.map((x) => x.p99),
        note: `B's GET /v1/agents/{id} ${what}, ${B_RATE}/s open loop over keep-alive, median of ${rounds.length} rounds (a request not answered 2xx counts at the time it failed, a timeout at 10 s); p50 ${ms(b.map((x) => x.p50))}${b.map(failures).join('')}${a.length ? `; A per round: ${a.map(describeA).join(' | ')}` : ''}`,
        details: { b, a: a.map((x) => ({ ...x.a, serverCpuMs: x.serverCpuMs })) },
      };
    },
  };
}

function ratioCase(name: string, phase: 'flooded' | 'refused', what: string): BenchCase {
  return {
    name,
    run: async (ctx): Promise<Result> => {
      const rounds = await bodyRounds(ctx);
      const ratios = rounds.map((r) => r[phase]!.b.p99 / r.alone.p99);
      return {
        figure: median(ratios),
        unit: 'x',
        runs: ratios.map((x) => Math.round(x * 100) / 100),
        note: `B's GET p99 while A posts ${what} / B's p99 alone, the median of each round's ratio (contract §21: at most 3x)`,
      };
    },
  };
}

export const edgeFloodBodyCases: BenchCase[] = [
  p99Case('edge.flood.body.alone.p99', 'alone', 'with nothing else running'),
  p99Case(
    'edge.flood.body.flooded.p99',
    'flooded',
    `while A's ${A_LOOPS} loops post ~1 MiB JSON bodies (items / string mix)`,
  ),
  ratioCase('edge.flood.body.p99-ratio', 'flooded', '~1 MiB bodies'),
  p99Case(REFUSED_CASES[0], 'refused', `while A's ${A_LOOPS} loops post bodies refused 413 / 415`),
  ratioCase(REFUSED_CASES[1], 'refused', 'refused bodies'),
];
