/**
 * The edge floods' server process (lib/flood-server.ts) seen from the case: started, settled
 * between phases, and stopped; and tenant B, the tenant measured, as both cases call it.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { BenchContext } from './context';
import type { FloodServer, FloodServerLine } from './flood-server';
import { spawnLineChild, type LineChild } from './line-child';
import type { ProbeResult, ProbeRoute } from './tenant-probe';

/** Tenant B's requests a second, and the address it comes from (a client of its own at the edge). */
export const B_RATE = 100;
export const B_ADDRESS = '127.0.0.3';
/** Bounds on the children: starting the app and seeding it, a child stopping. */
const SERVER_START_MS = 180_000;
export const STOP_MS = 45_000;

/**
 * Before each phase the server must have finished what the last one left queued (requests a client
 * gave up on are still parsed and answered): under a quarter of a core over QUIET_WINDOW_MS, waited
 * for at most QUIET_DEADLINE_MS.
 */
const QUIET_SHARE = 0.25;
const QUIET_WINDOW_MS = 500;
const QUIET_DEADLINE_MS = 30_000;

export const lib = (file: string) => path.join(__dirname, file);

/** CPU ms a process has used, all its threads (/proc; USER_HZ is 100 on Linux). */
export function processCpuMs(pid: number): number {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return 0;
  }
}

/** Before a phase: the server collects what the last one left, then finishes what it left queued. */
export async function settle(ctx: BenchContext, server: Server): Promise<void> {
  const collected = () => server.child.lines.filter((l) => 'event' in l).length;
  const before = collected();
  server.child.send('gc');
  await server.child.waitFor(() => collected() > before, QUIET_DEADLINE_MS, 'the flood server collecting its heap');
  await serverQuiet(ctx, server.info.pid);
}

async function serverQuiet(ctx: BenchContext, pid: number): Promise<void> {
  const start = performance.now();
  while (performance.now() - start < QUIET_DEADLINE_MS) {
    const before = processCpuMs(pid);
    await new Promise((resolve) => setTimeout(resolve, QUIET_WINDOW_MS));
    if (processCpuMs(pid) - before < QUIET_SHARE * QUIET_WINDOW_MS) return;
  }
  ctx.log(`edge flood: the server was still busy after ${QUIET_DEADLINE_MS / 1000} s; measuring anyway`);
}

export interface Server {
  info: FloodServer;
  child: LineChild<FloodServerLine>;
}

/** The app in a server process of its own, two tenants seeded; `nofile`: its file limit (`ulimit -n`). */
export async function startServer(ctx: BenchContext, name: string, nofile?: number): Promise<Server> {
  const dir = ctx.file(name);
  const args = ['--max-semi-space-size=64', '--expose-gc', lib('flood-server.js'), dir];
  const child = spawnLineChild<FloodServerLine>(args, { nofile });
  try {
    const info = await child.waitFor((l) => 'url' in l, SERVER_START_MS, 'the flood server starting');
    return { info: info as FloodServer, child };
  } catch (error) {
    await child.stop(STOP_MS);
    throw error;
  }
}

export const bRoutes = (server: FloodServer): ProbeRoute[] => [
  { path: `/v1/agents/${server.b.agentId}`, headers: { 'x-api-key': server.b.key } },
];

/** B's figures in a log line. */
export function describeProbe(b: ProbeResult): string {
  return `B p50 ${b.p50.toFixed(1)} ms, p99 ${b.p99.toFixed(1)} ms, ${b.answered}/${b.sent} answered 2xx (p99 ${b.answeredP99.toFixed(1)} ms)${failures(b)}`;
}

/** B's answers other than 2xx and its requests never answered, by status or error code. */
export function failures(b: ProbeResult): string {
  const other = [
    ...Object.entries(b.statuses).filter(([status]) => !status.startsWith('2')),
    ...Object.entries(b.errors),
  ];
  return other.length ? ` (${other.map(([k, n]) => `${k} x${n}`).join(', ')})` : '';
}
