import fs from 'node:fs';
import type { BenchCase } from '../lib/case';
import type { BenchContext } from '../lib/context';
import {
  B_ADDRESS,
  B_RATE,
  bRoutes,
  describeProbe,
  failures,
  lib,
  settle,
  startServer,
  STOP_MS,
} from '../lib/flood-server-process';
import type { IdleStatus } from '../lib/idle-connections';
import { spawnLineChild, type LineChild } from '../lib/line-child';
import { probeTenant, type ProbeResult, type ProbeRoute } from '../lib/tenant-probe';

/** Idle connections per holder process (each holds one file descriptor per connection) and per source address. */
const PER_HOLDER = 5_000;
const PER_ADDRESS = 200;
/** The holders' first source address; each takes PER_HOLDER / PER_ADDRESS addresses after it. */
const FIRST_HOLDER_ADDRESS = '127.1.0.1';
/**
 * How long the holders may take to open every connection before the measurement starts anyway,
 * and how long the count held may stand still before it does (a server that refuses the rest).
 */
const OPEN_DEADLINE_MS = 120_000;
const OPEN_STALL_MS = 10_000;

type HolderLine = IdleStatus;

interface ConnectionFlood {
  count: number;
  serverNofile: number;
  /**
   * the idle connections the server held (its open descriptors beyond `baselineFds`, those it had
   * before the flood) when the probe started, and the fewest and most during it
   */
  heldAtStart: number;
  heldMin: number;
  heldMax: number;
  baselineFds: number;
  /** the most connections the holders saw open during the probe (some the server may have dropped) */
  clientHeldMax: number;
  alone: ProbeResult;
  held: ProbeResult;
  after: ProbeResult;
  holders: IdleStatus;
  openSeconds: number;
}

/** A process's file limits (a child's `ulimit -n` can go no higher than this one's hard limit). */
function fileLimits(pid: number | 'self' = 'self'): { soft: number; hard: number } {
  const line = fs
    .readFileSync(`/proc/${pid}/limits`, 'utf8')
    .split('\n')
    .find((l) => l.startsWith('Max open files'))!;
  const [soft, hard] = line.slice('Max open files'.length).trim().split(/\s+/);
  return { soft: soft === 'unlimited' ? Infinity : Number(soft), hard: hard === 'unlimited' ? Infinity : Number(hard) };
}

const openFds = (pid: number) => {
  try {
    return fs.readdirSync(`/proc/${pid}/fd`).length;
  } catch {
    return 0;
  }
};

/**
 * Issue 47's second flood: `count` idle connections (BENCH_FLOOD_CONNECTIONS; 20,000, 5,000 with
 * --quick) held by holder processes from many loopback addresses, while B calls `GET
 * /v1/agents/{id}` and `/readyz`, each on a new connection (a client arriving during the flood).
 * The server runs under a file limit of the flood plus 4,096, or the hard limit if that is lower.
 */
async function connectionFlood(ctx: BenchContext): Promise<ConnectionFlood> {
  return ctx.shared('edge-flood-connections', async () => {
    const count = Number(process.env.BENCH_FLOOD_CONNECTIONS) || (ctx.quick ? 5_000 : 20_000);
    const seconds = ctx.quick ? 5 : 15;
    const serverNofile = Math.min(count + 4_096, fileLimits().hard);
    const server = await startServer(ctx, 'edge-flood-connections', serverNofile);
    const holders: Array<LineChild<HolderLine>> = [];
    try {
      const { info } = server;
      const routes: ProbeRoute[] = [...bRoutes(info), { path: '/readyz' }];
      const probe = (s: number) =>
        probeTenant({ url: info.url, routes, rate: B_RATE, seconds: s, fresh: true, localAddress: B_ADDRESS });
      await probe(2);
      await settle(ctx, server);
      const alone = await probe(seconds);
      ctx.log(`edge connections, alone: ${describeProbe(alone)}`);
      const port = new URL(info.url).port;
      const first = FIRST_HOLDER_ADDRESS.split('.').reduce((n, part) => n * 256 + Number(part), 0);
      const addressesPerHolder = Math.ceil(PER_HOLDER / PER_ADDRESS);
      const maxSeconds = String(Math.ceil(OPEN_DEADLINE_MS / 1000 + seconds + 120));
      await settle(ctx, server);
      const baselineFds = openFds(info.pid);
      const openStart = performance.now();
      for (let h = 0, left = count; left > 0; h++, left -= PER_HOLDER) {
        const address = [24, 16, 8, 0].map((s) => ((first + h * addressesPerHolder) >>> s) & 255).join('.');
        const args = ['127.0.0.1', port, String(Math.min(PER_HOLDER, left)), address, String(PER_ADDRESS), maxSeconds];
        holders.push(spawnLineChild<HolderLine>([lib('idle-connections.js'), ...args]));
      }
      // what the server holds (its descriptors beyond those it had before), not what the holders believe
      const held = () => openFds(info.pid) - baselineFds;
      const clientHeld = () => holders.reduce((n, h) => n + (h.lines[h.lines.length - 1]?.held ?? 0), 0);
      let most = 0;
      let grewAt = openStart;
      while (
        held() < count &&
        performance.now() - openStart < OPEN_DEADLINE_MS &&
        performance.now() - grewAt < OPEN_STALL_MS
      ) {
        await new Promise((resolve) => setTimeout(resolve, 250));
        if (held() > most) [most, grewAt] = [held(), performance.now()];
      }
      const openSeconds = (performance.now() - openStart) / 1000;
      const heldAtStart = held();
      ctx.log(
        `edge connections: the server holds ${heldAtStart} of ${count} after ${openSeconds.toFixed(1)} s (the holders see ${clientHeld()} open)`,
      );
      let heldMin = heldAtStart;
      let heldMax = heldAtStart;
      let clientHeldMax = clientHeld();
      const sampler = setInterval(() => {
        const now = held();
        heldMin = Math.min(heldMin, now);
        heldMax = Math.max(heldMax, now);
        clientHeldMax = Math.max(clientHeldMax, clientHeld());
      }, 500);
      let during: ProbeResult;
      try {
        during = await probe(seconds);
      } finally {
        clearInterval(sampler);
      }
      ctx.log(
        `edge connections, held: ${describeProbe(during)}; the server held ${heldMin}-${heldMax} (${baselineFds} descriptors before)`,
      );
      const finals = await Promise.all(holders.splice(0).map((h) => h.stop(STOP_MS)));
      const holderTotals = sumStatuses(finals.filter((f): f is IdleStatus => f !== undefined));
      await settle(ctx, server);
      const after = await probe(3);
      ctx.log(`edge connections, after: ${describeProbe(after)}`);
      return {
        count,
        serverNofile: fileLimits(info.pid).soft,
        heldAtStart,
        heldMin,
        heldMax,
        baselineFds,
        clientHeldMax,
        alone,
        held: during,
        after,
        holders: holderTotals,
        openSeconds,
      };
    } finally {
      await Promise.all(holders.map((h) => h.stop(STOP_MS)));
      await server.child.stop(STOP_MS);
    }
  });
}

function sumStatuses(statuses: IdleStatus[]): IdleStatus {
  const failed: Record<string, number> = {};
  for (const s of statuses) for (const [code, n] of Object.entries(s.failed)) failed[code] = (failed[code] ?? 0) + n;
  const sum = (f: (s: IdleStatus) => number) => statuses.reduce((n, s) => n + f(s), 0);
  return {
    event: 'done',
    held: sum((s) => s.held),
    opened: sum((s) => s.opened),
    closedByServer: sum((s) => s.closedByServer),
    failed,
  };
}

function describeHolding(f: ConnectionFlood): string {
  const failed = Object.entries(f.holders.failed)
    .map(([code, n]) => `${code} x${n}`)
    .join(', ');
  return `${f.count.toLocaleString('en-US')} idle connections from ${Math.ceil(f.count / PER_ADDRESS)} loopback addresses (${PER_ADDRESS} each): the server held ${f.heldAtStart} when B started (after ${f.openSeconds.toFixed(0)} s), ${f.heldMin}-${f.heldMax} during (the holders saw up to ${f.clientHeldMax} open); ${f.holders.opened} connects, ${f.holders.closedByServer} ended by the server${failed ? `, failed ${failed}` : ''}; server file limit ${f.serverNofile}, ${f.baselineFds} descriptors its own`;
}

const share = (p: ProbeResult) => (p.sent === 0 ? 0 : (100 * p.answered) / p.sent);

export const edgeFloodConnectionsCases: BenchCase[] = [
  {
    name: 'edge.flood.connections.answered',
    run: async (ctx) => {
      const f = await connectionFlood(ctx);
      const routes = Object.entries(f.held.byRoute)
        .map(([route, r]) => `${route.startsWith('/v1/agents/') ? 'GET agent' : route} ${r.answered}/${r.sent}`)
        .join(', ');
      return {
        figure: share(f.held),
        unit: '%',
        note: `B's requests answered 2xx while held (each on a new connection, ${B_RATE}/s): ${routes}${failures(f.held)}; before ${share(f.alone).toFixed(1)}%, after release ${share(f.after).toFixed(1)}%; ${describeHolding(f)}`,
        details: { ...f },
      };
    },
  },
  {
    name: 'edge.flood.connections.p99',
    run: async (ctx) => {
      const f = await connectionFlood(ctx);
      const agent = Object.entries(f.held.byRoute).find(([route]) => route.startsWith('/v1/agents/'))![1];
      const alone = Object.entries(f.alone.byRoute).find(([route]) => route.startsWith('/v1/agents/'))![1];
      return {
        figure: agent.answered > 0 ? agent.answeredP99 : null,
        unit: 'ms',
        note: `B's GET /v1/agents/{id} p99 while the idle connections are held (of those answered, ${agent.answered}/${agent.sent}), new connection each; alone before: p99 ${alone.answeredP99.toFixed(1)} ms, p50 ${alone.p50.toFixed(1)}; same run as edge.flood.connections.answered`,
      };
    },
  },
];
