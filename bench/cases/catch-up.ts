import { openSealedSqliteLog } from '../../src/cli/open-sealed-store';
import fs from 'node:fs';
import path from 'node:path';
import pino from 'pino';
import { ALL_PROJECTIONS, PROJECTION_CATALOG } from '../../projections';
import { conversationsProjection } from '../../projections/conversations/conversations.projection';
import type { EventStore } from '../../src/event-store/event-store.port';
import { START } from '../../src/event-store/position';
import { sqlitePosition } from '../../src/event-store/sqlite/rows';
import { openAppDatabase } from '../../src/app.database';
import { catchUp } from '../../src/read-models/generations/catch-up';
import { openReadModel } from '../../src/read-models/generations/open-read-model';
import { ReadModelRegistry } from '../../src/read-models/generations/read-model-registry';
import { ReadModels } from '../../src/read-models/read-models.service';
import { ApplyThread } from '../../src/read-models/apply/thread-applier';
import type { BenchCase } from '../lib/case';
import type { BenchContext } from '../lib/context';
import { caughtUp } from '../lib/caught-up';
import { removeDb } from '../lib/paths';
import { startThreadProfiles, type ThreadProfile } from '../lib/cost/thread-profiles';
import { cpuBetween, namedThreadCpuMs, threadCpuMs } from '../lib/thread-cpu';
import { dataset } from './conversations';

interface CatchUpFigures {
  events: number;
  allSeconds: number;
  /** the events the conversations read model alone applied: the log's first ALONE_EVENTS at most */
  aloneEvents: number;
  aloneSeconds: number;
  conversations: number;
  /** CPU µs per event while every read model caught up: the event loop's, and every other thread's */
  allCpu: { main: number | null; others: number | null };
  aloneCpu: { main: number | null; others: number | null };
}

/**
 * The diagnostic applies at most this many events: row by row it runs at a few thousand events/s,
 * so over the whole 14M events of the 1M dataset it took longer than the catch-up it explains.
 */
const ALONE_EVENTS = 500_000;

const perEvent = (ms: number | null, events: number) => (ms === null ? null : (ms * 1000) / events);

/** `BENCH_CPU_PROFILE=<dir>`: every thread's profile of the phase, written there. */
async function profiledThreads<T>(label: string, phase: () => Promise<T>): Promise<T> {
  const dir = process.env.BENCH_CPU_PROFILE;
  if (!dir) return phase();
  const stop = await startThreadProfiles(Number(process.env.BENCH_CPU_PROFILE_INTERVAL_US) || 1000);
  try {
    return await phase();
  } finally {
    const profiles: ThreadProfile[] = await stop();
    fs.mkdirSync(dir, { recursive: true });
    // two threads of one entry (the apply threads) told apart by their index
    profiles.forEach((p, i) =>
      fs.writeFileSync(path.join(dir, `${label}.${p.thread}.${i}.${Date.now()}.cpuprofile`), JSON.stringify(p.profile)),
    );
  }
}

/** A copy of the seeded log in a fresh data dir: no read model, no checkpoint, nothing in the platform database. */
export function freshDataDir(ctx: BenchContext, from: string, name: string): string {
  const dir = ctx.file(name);
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(dir, { recursive: true });
  // the log, and what opens its sealed fields: the key store and the secret its keys are wrapped under
  for (const name of ['events.sqlite', 'conversation-keys.sqlite'])
    for (const suffix of ['', '-wal']) {
      const file = path.join(from, `${name}${suffix}`);
      if (fs.existsSync(file)) fs.copyFileSync(file, path.join(dir, `${name}${suffix}`));
    }
  if (fs.existsSync(path.join(from, 'server-secret')))
    fs.copyFileSync(path.join(from, 'server-secret'), path.join(dir, 'server-secret'));
  return dir;
}

export interface AllReadModelsRun {
  events: number;
  seconds: number;
  /** CPU µs per event: the event loop's, and every other thread's */
  cpu: { main: number | null; others: number | null };
}

/**
 * Every read model of the app built from the start of `store`'s log at once, its read models and
 * platform database in `dir` (SQLite files): the app's read side (runners, the log feed, the apply
 * thread) without its HTTP side. `label` names the profiles (BENCH_CPU_PROFILE) and log lines.
 */
export async function catchUpAllReadModels(
  ctx: BenchContext,
  dir: string,
  store: EventStore,
  label: string,
): Promise<AllReadModelsRun> {
  const platform = await openAppDatabase(dir);
  try {
    const registry = new ReadModelRegistry(platform, dir);
    const head = await store.headPosition();
    const events = await store.countAfter(START);
    if (events === null) throw new Error(`${label}: the store cannot count its events`);
    const applyThread = new ApplyThread(PROJECTION_CATALOG, undefined, ALL_PROJECTIONS);
    const readModels = new ReadModels(
      ALL_PROJECTIONS,
      store,
      registry,
      pino({ level: 'warn' }),
      60_000,
      undefined,
      applyThread,
    );
    ctx.log(
      `${label}: every read model (${ALL_PROJECTIONS.length}) from the start of ${events.toLocaleString('en-US')} events`,
    );
    const began = performance.now();
    const cpuBefore = threadCpuMs();
    const namedBefore = namedThreadCpuMs();
    await readModels.start();
    await profiledThreads(label, () =>
      caughtUp(
        readModels,
        head,
        ALL_PROJECTIONS.map((p) => p.name),
        events,
      ),
    );
    const seconds = (performance.now() - began) / 1000;
    const all = cpuBetween(cpuBefore, threadCpuMs());
    ctx.log(`${label}: CPU ms by thread: ${threadsNote(namedBefore, namedThreadCpuMs())}`);
    // the runners' batches: fewer and larger when the read keeps ahead (a read model pays per transaction)
    const sent = applyThread.sent;
    ctx.log(
      `${label}: ${sent.parts.toLocaleString('en-US')} batches to the apply threads in ${sent.messages.toLocaleString('en-US')} messages, ${(sent.events / Math.max(1, sent.messages)).toFixed(0)} events a message`,
    );
    await readModels.stop();
    return { events, seconds, cpu: { main: perEvent(all.mainMs, events), others: perEvent(all.othersMs, events) } };
  } finally {
    await platform.destroy();
  }
}

/**
 * Every read model from the start of a seeded log (catchUpAllReadModels), as after a restore or on
 * a new install of a large log. Then the conversations read model alone over the same log, for
 * scale. The seeded log is the conversations cases' (BENCH_CONVERSATIONS, kept in bench/data/).
 */
async function measure(ctx: BenchContext): Promise<CatchUpFigures> {
  return ctx.shared('catch-up', async () => {
    const data = await dataset(ctx);
    const dir = freshDataDir(ctx, data.dir, 'catch-up-all');
    const store = await openSealedSqliteLog(dir);
    const all = await catchUpAllReadModels(ctx, dir, store, 'catch-up.all');
    const events = all.events;

    const file = path.join(dir, 'conversations-alone.sqlite');
    removeDb(file);
    const source = await openReadModel(conversationsProjection, file);
    const alone = performance.now();
    const aloneBefore = threadCpuMs();
    // the diagnostic's figures are per event: over the 1M dataset, the log's first part says as much
    const until = events > ALONE_EVENTS ? sqlitePosition(ALONE_EVENTS) : undefined;
    const aloneRun = await profiledThreads('catch-up.alone', () =>
      catchUp(source, conversationsProjection, store, { until }),
    );
    const aloneSeconds = (performance.now() - alone) / 1000;
    const aloneCpu = cpuBetween(aloneBefore, threadCpuMs());
    await source.destroy();
    await store.close();
    fs.rmSync(dir, { recursive: true, force: true });
    return {
      events,
      allSeconds: all.seconds,
      aloneEvents: aloneRun.events,
      aloneSeconds,
      conversations: data.conversations,
      allCpu: all.cpu,
      aloneCpu: {
        main: perEvent(aloneCpu.mainMs, aloneRun.events),
        others: perEvent(aloneCpu.othersMs, aloneRun.events),
      },
    };
  });
}

/** The threads that used CPU between two samples, busiest first (the workers are all named `node`: by id). */
function threadsNote(before: ReturnType<typeof namedThreadCpuMs>, after: ReturnType<typeof namedThreadCpuMs>): string {
  if (!before || !after) return 'n/a';
  return [...after]
    .map(([tid, { name, ms }]) => ({ tid, name, ms: ms - (before.get(tid)?.ms ?? 0) }))
    .filter((t) => t.ms > 0)
    .sort((a, b) => b.ms - a.ms)
    .map((t) => `${t.tid === process.pid ? 'main' : `${t.name}#${t.tid}`} ${t.ms}`)
    .join(', ');
}

export function cpuNote(cpu: CatchUpFigures['allCpu']): string {
  if (cpu.main === null || cpu.others === null) return 'n/a';
  return `${cpu.main.toFixed(0)} µs event loop + ${cpu.others.toFixed(0)} µs other threads`;
}

function ratioNote(all: number, rebuild: number | null): string {
  if (rebuild === null) return 'projection.rebuild not in this run';
  return `${(all / rebuild).toFixed(3)}x projection.rebuild (${Math.round(all).toLocaleString('en-US')} vs ${Math.round(rebuild).toLocaleString('en-US')} events/s)`;
}

export const catchUpCases: BenchCase[] = [
  {
    // the target compares it with projection.rebuild: one projection rebuilding alone, same run
    name: 'catch-up.all-read-models',
    async run(ctx) {
      // the target's other side, measured by an earlier group of this run (when it ran)
      const rebuild = ctx.earlierFigure('projection.rebuild');
      const f = await measure(ctx);
      const figure = f.events / f.allSeconds;
      return {
        figure,
        unit: 'events/s',
        note: `${ALL_PROJECTIONS.length} read models from the start together (log feed, apply threads, new generations built in bulk), ${f.events.toLocaleString('en-US')} events of ${f.conversations.toLocaleString('en-US')} seeded conversations, ${f.allSeconds.toFixed(1)} s: ${ratioNote(figure, rebuild)}; CPU per event ${cpuNote(f.allCpu)}`,
        details: {
          events: f.events,
          seconds: f.allSeconds,
          cpuUsPerEvent: f.allCpu,
          rebuildEventsPerSecond: rebuild,
          ratioToRebuild: rebuild === null ? null : figure / rebuild,
        },
      };
    },
  },
  {
    name: 'catch-up.conversations-alone',
    async run(ctx) {
      const f = await measure(ctx);
      return {
        figure: f.aloneEvents / f.aloneSeconds,
        unit: 'events/s',
        note: `diagnostic: the conversations read model alone over the same log's first ${f.aloneEvents.toLocaleString('en-US')} events (catchUp, inline, its full-text index fed row by row), ${f.aloneSeconds.toFixed(1)} s; CPU per event ${cpuNote(f.aloneCpu)}`,
        details: { events: f.aloneEvents, seconds: f.aloneSeconds, cpuUsPerEvent: f.aloneCpu },
      };
    },
  },
];
