import { PostgresEventStore } from '../../src/event-store/postgres/postgres-event-store';
import type { BenchCase } from '../lib/case';
import type { BenchContext } from '../lib/context';
import type { FailoverAppLine } from '../lib/failover-app';
import { lib } from '../lib/flood-server-process';
import { spawnLineChild, type LineChild } from '../lib/line-child';
import { median, withDeadline } from '../lib/measure';
import { benchPostgres, freshDatabase } from '../lib/postgres-log';

/**
 * Issue 48's failover figure: one PostgreSQL (the log, the read models, the platform records and
 * the leases), two Parley processes, mixed traffic to both; SIGKILL the process holding every lease,
 * and time from the kill until the survivor, leading, has applied an event appended after it.
 *
 * The leader is whoever started first: a process starts, leads every read model and process
 * manager (GET /readyz: each projection's role, each manager's `active`), then a second one starts
 * and follows. After a kill, a fresh process starts and follows the survivor, which is killed in
 * turn: `KILLS` kills, each of the current leader, their median the figure.
 */

const SERVER_SECRET = 'bench-failover-server-secret-0123456789abcdef';
const KILLS = 3;
const CLIENTS = 8;
const START_MS = 120_000;
const TAKEOVER_DEADLINE_MS = 60_000;
const POLL_MS = 20;

interface Proc {
  name: string;
  url: string;
  child: LineChild<FailoverAppLine>;
  alive: boolean;
}

interface Readyz {
  status: string;
  eventStore: { head?: string };
  projections: Array<{ name: string; role: string; position: string; lagEvents: number | null }>;
  processManagers: Array<{ name: string; active: boolean; position: string }>;
}

async function readyz(proc: Proc): Promise<{ status: number; body: Readyz }> {
  const response = await fetch(`${proc.url}/readyz`);
  return { status: response.status, body: (await response.json()) as Readyz };
}

const leadsAll = (r: Readyz) =>
  r.projections.every((p) => p.role === 'leader') && r.processManagers.every((m) => m.active);
const leadsNone = (r: Readyz) =>
  r.projections.every((p) => p.role !== 'leader') && r.processManagers.every((m) => !m.active);

async function until<T>(what: string, ms: number, probe: () => Promise<T | null>): Promise<T> {
  return withDeadline(
    (async () => {
      for (;;) {
        const found = await probe().catch(() => null);
        if (found !== null) return found;
        await new Promise((resolve) => setTimeout(resolve, POLL_MS));
      }
    })(),
    ms,
    what,
  );
}

async function startProc(ctx: BenchContext, name: string, env: Record<string, string>): Promise<Proc> {
  const child = spawnLineChild<FailoverAppLine>([
    '--max-semi-space-size=64',
    lib('failover-app.js'),
    ctx.file(name),
    JSON.stringify(env),
  ]);
  try {
    const line = await child.waitFor((l) => 'url' in l, START_MS, `failover process ${name} starting`);
    return { name, url: line.url, child, alive: true };
  } catch (error) {
    await child.stop(5_000);
    throw error;
  }
}

/** Debug-chat turns and new agents from CLIENTS loops, each request to a live process in turn. */
function traffic(procs: () => Proc[], key: string, accountId: string, agentId: string, conversations: string[]) {
  let stopped = false;
  const counts = { turns: 0, agents: 0, failed: 0 };
  const h = { 'x-api-key': key, 'content-type': 'application/json' };
  const loops = Array.from({ length: CLIENTS }, async (_, client) => {
    for (let n = 0; !stopped; n++) {
      const live = procs().filter((p) => p.alive);
      if (live.length === 0) break;
      const proc = live[(client + n) % live.length];
      try {
        const response =
          n % 5 === 4
            ? await fetch(`${proc.url}/v1/accounts/${accountId}/agents`, {
                method: 'POST',
                headers: h,
                body: JSON.stringify({ name: `agent ${client}-${n}`, responseSettings: { greeting: 'Hi' } }),
              })
            : await fetch(`${proc.url}/v1/agents/${agentId}/debug-chat/${conversations[client]}`, {
                method: 'POST',
                headers: h,
                body: JSON.stringify({ clientEnv: 'sandbox', message: `question ${n} from client ${client}` }),
              });
        await response.arrayBuffer();
        if (response.ok) counts[n % 5 === 4 ? 'agents' : 'turns']++;
        else counts.failed++;
      } catch {
        // the killed process's requests in flight
        counts.failed++;
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    }
  });
  return {
    counts,
    async stop() {
      stopped = true;
      await Promise.all(loops);
    },
  };
}

interface Kill {
  /** ms from SIGKILL to the first poll that saw the survivor lead a read model past the log's head at the kill */
  firstApplied: number;
  /** ms until it led every read model and process manager */
  allLeading: number;
  /** ms until every read model it leads was at the head again (GET /readyz 200) */
  ready: number;
}

async function measure(ctx: BenchContext): Promise<{ kills: Kill[]; counts: Record<string, number> }> {
  return ctx.shared('postgres-failover', async () => {
    const server = await benchPostgres(ctx);
    const url = await freshDatabase(server.url, 'bench_failover');
    const env = {
      EVENT_STORE: 'postgres',
      READ_MODEL_DB: 'postgres',
      DATABASE_URL: url,
      SERVER_SECRET,
    };
    const procs: Proc[] = [];
    const log = await PostgresEventStore.open({ url, readers: 1 });
    let load: ReturnType<typeof traffic> | null = null;
    try {
      let leader = await startProc(ctx, 'failover-0', env);
      procs.push(leader);
      await until('the first process ready', START_MS, async () =>
        (await readyz(leader)).status === 200 && leadsAll((await readyz(leader)).body) ? true : null,
      );
      const follower = await startProc(ctx, 'failover-1', env);
      procs.push(follower);
      await until('the second process ready', START_MS, async () =>
        (await readyz(follower)).status === 200 ? true : null,
      );

      const op = { 'x-operator-token': 'bench-operator-token-0123456789', 'content-type': 'application/json' };
      const post = async <T>(route: string, headers: Record<string, string>, body: unknown): Promise<T> => {
        const response = await fetch(`${leader.url}${route}`, { method: 'POST', headers, body: JSON.stringify(body) });
        const text = await response.text();
        if (!response.ok) throw new Error(`POST ${route}: ${response.status} ${text}`);
        return (text ? JSON.parse(text) : null) as T;
      };
      const { accountId } = await post<{ accountId: string }>('/admin/v1/accounts', op, {
        name: 'failover',
        region: 'us',
      });
      const { key } = await post<{ key: string }>(`/admin/v1/accounts/${accountId}/api-keys`, op, {
        name: 'failover',
        agents: 'all',
        permissions: ['agents', 'keys', 'conversations'],
        expiresAt: new Date(Date.now() + 30 * 24 * 3600 * 1000).toISOString(),
      });
      const h = { 'x-api-key': key, 'content-type': 'application/json' };
      const { agentId } = await post<{ agentId: string }>(`/v1/accounts/${accountId}/agents`, h, {
        name: 'failover',
        responseSettings: { greeting: 'Hello!' },
      });
      // debug chat needs a deployment in sandbox: a branch with a topic, merged
      const { branchId } = await post<{ branchId: string }>(`/v1/agents/${agentId}/branches`, h, { branchName: 'kb' });
      await post(`/v1/agents/${agentId}/branches/${branchId}/knowledge-base/topics`, h, {
        name: 'opening hours',
        content: 'We are open from 9 to 5, Monday to Friday.',
        exampleQueries: { queries: ['when are you open', 'opening hours'] },
      });
      await post(`/v1/agents/${agentId}/branches/${branchId}/merge`, h, { deploymentMessage: 'kb' });
      const conversations = await Promise.all(
        Array.from(
          { length: CLIENTS },
          async () =>
            (await post<{ conversationId: string }>(`/v1/agents/${agentId}/debug-chat`, h, { clientEnv: 'sandbox' }))
              .conversationId,
        ),
      );
      load = traffic(() => procs, key, accountId, agentId, conversations);

      const kills: Kill[] = [];
      for (let k = 0; k < KILLS; k++) {
        const survivor = procs.find((p) => p.alive && p !== leader)!;
        // the survivor follows everything, the leader leads everything: the kill takes every lease
        await until('the roles settling before a kill', START_MS, async () =>
          leadsAll((await readyz(leader)).body) && leadsNone((await readyz(survivor)).body) ? true : null,
        );
        await new Promise((resolve) => setTimeout(resolve, ctx.quick ? 1_000 : 3_000));
        leader.alive = false;
        const killedAt = performance.now();
        process.kill(leader.child.pid, 'SIGKILL');
        await leader.child.stop(10_000);
        // every event at or before this head is one the dead process may have applied
        const head = await log.headPosition();
        let firstApplied: number | null = null;
        let allLeading: number | null = null;
        await until(`the survivor taking over (kill ${k + 1})`, TAKEOVER_DEADLINE_MS, async () => {
          const r = await readyz(survivor);
          const now = performance.now() - killedAt;
          if (firstApplied === null && r.body.projections.some((p) => p.role === 'leader' && p.position > head))
            firstApplied = now;
          if (allLeading === null && leadsAll(r.body)) allLeading = now;
          return firstApplied !== null && allLeading !== null && r.status === 200 ? now : null;
        }).then((ready) => kills.push({ firstApplied: firstApplied!, allLeading: allLeading!, ready }));
        ctx.log(
          `failover kill ${k + 1}: first event applied by the survivor ${kills[k].firstApplied.toFixed(0)} ms after SIGKILL, every lease ${kills[k].allLeading.toFixed(0)} ms, ready ${kills[k].ready.toFixed(0)} ms (${JSON.stringify(load.counts)})`,
        );
        leader = survivor;
        if (k < KILLS - 1) {
          const next = await startProc(ctx, `failover-${k + 2}`, env);
          procs.push(next);
          await until('a new process ready', START_MS, async () => ((await readyz(next)).status === 200 ? true : null));
        }
      }
      return { kills, counts: { ...load.counts } };
    } finally {
      await load?.stop();
      for (const p of procs) if (p.alive) await p.child.stop(15_000);
      await log.close();
    }
  });
}

export const postgresFailoverCases: BenchCase[] = [
  {
    name: 'postgres.failover',
    async run(ctx) {
      const { kills, counts } = await measure(ctx);
      const figure = median(kills.map((k) => k.firstApplied));
      const all = median(kills.map((k) => k.allLeading));
      return {
        figure,
        runs: kills.map((k) => k.firstApplied),
        unit: 'ms',
        note: `SIGKILL of the process leading every read model and process manager (EVENT_STORE=postgres, READ_MODEL_DB=postgres) -> the other applies an event appended after the kill, median of ${kills.length} kills under ${CLIENTS} clients of debug-chat turns and new agents; every lease taken in ${all.toFixed(0)} ms (median), ready again in ${median(kills.map((k) => k.ready)).toFixed(0)} ms; ${counts.turns} turns, ${counts.agents} agents, ${counts.failed} requests failed (in flight on a killed process)`,
        details: { kills, counts },
      };
    },
  },
];
