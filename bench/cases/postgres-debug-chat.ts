import { freshDatabase } from '../lib/bench-postgres';
import type { BenchCase, Result } from '../lib/case';
import type { BenchContext } from '../lib/context';
import { between, countStatements, IDLE_FLUSH_MS, minus, snapshot, type Activity } from '../lib/pg-activity';
import { measure, openChats, runDriver, turnsCase } from './debug-chat';

/**
 * Debug chat (debug-chat.ts's load: 32 conversations on an agent of 500 topics, over HTTP) on an
 * app whose log is in PostgreSQL (EVENT_STORE=postgres, a database of the run's server) and on one
 * whose log is a SQLite file, one after the other in this process. Read models and platform records
 * stay in SQLite files for both: the log is the only variable. Then, on the PostgreSQL app, what a
 * turn costs the database, for bench/README.md's sizing ("Past one machine, on paper").
 */
interface Cost {
  turns: number;
  seconds: number;
  /** the window's activity less an idle window's of the same length (the flush pause's share) */
  perWindow: Activity;
  idle: Activity;
}

async function chatOn(ctx: BenchContext, label: string, env: Record<string, string>, cost?: string) {
  const { app, plan } = await openChats(ctx, label, env);
  try {
    const figures = await measure(`postgres.debug-chat.${label}`, plan, ctx.file(`${label}-plan.json`));
    return { figures, cost: cost ? await costWindow(ctx, cost, plan) : undefined };
  } finally {
    await app.close();
  }
}

/**
 * A bounded run with the database's counters read around it: idle pause, S0, idle pause, S1, the
 * load, idle pause, S2. (S2 − S1) − (S1 − S0) is the load's own activity: each pause lets the
 * backends' statistics reach shared memory, and the idle window's activity (subscriptions looking
 * at the head) is taken off once.
 */
async function costWindow(ctx: BenchContext, url: string, plan: Parameters<typeof runDriver>[1]): Promise<Cost> {
  const pause = () => new Promise((resolve) => setTimeout(resolve, IDLE_FLUSH_MS));
  await pause();
  const s0 = await snapshot(url);
  await pause();
  const s1 = await snapshot(url);
  const seconds = ctx.quick ? 3 : 5;
  const driven = await runDriver(ctx.file('postgres-cost-plan.json'), { ...plan, seconds });
  if (driven.failures > 0) throw new Error(`cost window: ${driven.failures} turns failed: ${driven.firstFailure}`);
  await pause();
  const s2 = await snapshot(url);
  const idle = await between(url, s0, s1);
  const loaded = await between(url, s1, s2);
  return { turns: driven.turns, seconds: driven.elapsed, perWindow: minus(loaded, idle), idle };
}

const chats = (ctx: BenchContext) =>
  ctx.shared('postgres-debug-chat', async () => {
    countStatements();
    const sqlite = await chatOn(ctx, 'sqlite-log', {});
    const db = await freshDatabase(ctx, 'debug_chat');
    try {
      const postgres = await chatOn(ctx, 'postgres-log', { EVENT_STORE: 'postgres', EVENT_STORE_URL: db.url }, db.url);
      return { sqlite: sqlite.figures, postgres: postgres.figures, cost: postgres.cost! };
    } finally {
      await db.drop();
    }
  });

const per = (value: number, n: number) => (n > 0 ? value / n : 0);

function costTable(c: Cost): string {
  const a = c.perWindow;
  const events = a.events;
  const rows: Array<[string, number]> = [
    ['statements sent', a.statements],
    ['  of which group commits', a.groupCommits],
    ['transactions committed', a.commits],
    ['rows inserted', a.inserted],
    ['rows updated', a.updated],
    ['rows deleted', a.deleted],
    ['WAL bytes', a.walBytes],
    ['events appended', events],
  ];
  const lines = rows.map(
    ([what, v]) =>
      `  ${what.padEnd(24)} ${per(v, c.turns).toFixed(2).padStart(10)} /turn ${per(v, events).toFixed(2).padStart(10)} /event`,
  );
  const tables = Object.entries(a.tables)
    .filter(([, t]) => t.ins + t.upd + t.del !== 0)
    .map(
      ([name, t]) =>
        `  ${name}: ${per(t.ins, c.turns).toFixed(2)} ins, ${per(t.upd, c.turns).toFixed(2)} upd, ${per(t.del, c.turns).toFixed(2)} del /turn`,
    );
  const idle = `  idle (per second, taken off): ${(c.idle.statements / (IDLE_FLUSH_MS / 1000)).toFixed(1)} statements, ${(c.idle.commits / (IDLE_FLUSH_MS / 1000)).toFixed(1)} commits, ${(c.idle.walBytes / (IDLE_FLUSH_MS / 1000)).toFixed(0)} WAL bytes`;
  return [`  ${c.turns} turns in ${c.seconds.toFixed(1)} s`, ...lines, ...tables, idle].join('\n');
}

const costCase = (name: string, unit: string, value: (c: Cost) => number, what: string): BenchCase => ({
  name,
  async run(ctx): Promise<Result> {
    const { cost } = await chats(ctx);
    return {
      figure: value(cost),
      unit,
      note: `${what}; EVENT_STORE=postgres, debug chat, ${cost.turns} turns in a bounded window, idle activity taken off`,
      table: name.endsWith('wal-bytes-per-turn') ? costTable(cost) : undefined,
      details: { turns: cost.turns, seconds: cost.seconds, ...cost.perWindow, idle: cost.idle },
    };
  },
});

export const postgresDebugChatCases: BenchCase[] = [
  {
    name: 'postgres.debug-chat.turns.sqlite-log',
    run: async (ctx) => turnsCase((await chats(ctx)).sqlite, 'debug chat, the log in SQLite (read models in SQLite)'),
  },
  {
    name: 'postgres.debug-chat.turns.postgres-log',
    run: async (ctx) =>
      turnsCase((await chats(ctx)).postgres, 'debug chat, EVENT_STORE=postgres (read models in SQLite)'),
  },
  costCase(
    'postgres.debug-chat.cost.wal-bytes-per-turn',
    'B/turn',
    (c) => per(c.perWindow.walBytes, c.turns),
    'WAL written per turn (pg_current_wal_lsn)',
  ),
  costCase(
    'postgres.debug-chat.cost.wal-bytes-per-event',
    'B/event',
    (c) => per(c.perWindow.walBytes, c.perWindow.events),
    'WAL written per event appended',
  ),
  costCase(
    'postgres.debug-chat.cost.statements-per-turn',
    'stmts/turn',
    (c) => per(c.perWindow.statements, c.turns),
    "statements the app sent (counted at pg's Client.query)",
  ),
  costCase(
    'postgres.debug-chat.cost.group-commits-per-turn',
    'calls/turn',
    (c) => per(c.perWindow.groupCommits, c.turns),
    'group commits (parley_append_batch calls, one transaction each) per turn',
  ),
  costCase(
    'postgres.debug-chat.cost.commits-per-turn',
    'xacts/turn',
    (c) => per(c.perWindow.commits, c.turns),
    'transactions committed (pg_stat_database.xact_commit, read-only ones included)',
  ),
  costCase(
    'postgres.debug-chat.cost.events-per-turn',
    'events/turn',
    (c) => per(c.perWindow.events, c.turns),
    'events appended to parley_events per turn',
  ),
];
