import fs from 'node:fs';
import path from 'node:path';
import type { BenchCase } from '../lib/case';
import { breakdown, breakdownTable } from '../lib/cost/breakdown';
import { startThreadProfiles, type ThreadProfile } from '../lib/cost/thread-profiles';
import type { ChatDriverResult } from '../lib/chat-driver';
import { repoRoot } from '../lib/paths';
import { namedThreadCpuMs } from '../lib/thread-cpu';
import { CONVERSATIONS, openChats, runDriver, TOPICS, warmUp } from './debug-chat';

/**
 * Where a debug-chat turn's CPU goes: the same load as debug-chat.turns on an app of its own, run
 * under the V8 CPU profiler on the event loop and on every worker thread (event store writer,
 * read-model apply thread, ...), each sample attributed to a stage by its stack (lib/cost/stages.ts)
 * and divided by the turns completed in the profiled window. The profiler slows the turn, so this
 * case's rate is not a throughput figure: the shares and the µs per turn are what it is for.
 */
async function costOfATurn(ctx: Parameters<BenchCase['run']>[0]) {
  const intervalUs = Number(process.env.BENCH_CPU_PROFILE_INTERVAL_US) || 1000;
  const { app, plan } = await openChats(ctx, 'debug-chat-cost');
  try {
    await warmUp(plan, ctx.file('debug-chat-cost-warm-up.json'));
    const stop = await startThreadProfiles(intervalUs);
    // each thread's CPU over the window, read inside it: starting and stopping the profiler are not the turns'
    const cpuBefore = namedThreadCpuMs();
    let cpuAfter: ReturnType<typeof namedThreadCpuMs> = null;
    let profiles: ThreadProfile[] = [];
    let driven: ChatDriverResult;
    try {
      driven = await runDriver(ctx.file('debug-chat-cost-plan.json'), plan);
    } finally {
      cpuAfter = namedThreadCpuMs();
      profiles = await stop();
    }
    if (driven.failures > 0) throw new Error(`${driven.failures} turns failed, first: ${driven.firstFailure}`);
    if (driven.turns === 0) throw new Error('no turn completed in the profiled window');
    const dir = process.env.BENCH_CPU_PROFILE;
    if (dir) {
      fs.mkdirSync(dir, { recursive: true });
      for (const p of profiles)
        fs.writeFileSync(
          path.join(dir, `debug-chat.cost.${p.thread}.${Date.now()}.cpuprofile`),
          JSON.stringify(p.profile),
        );
    }
    const cpuByTid = cpuBefore && cpuAfter ? usedBetween(cpuBefore, cpuAfter) : null;
    return { driven, intervalUs, result: breakdown(profiles, driven.turns, repoRoot(), intervalUs, cpuByTid) };
  } finally {
    await app.close();
  }
}

/** Each thread's CPU ms between two threadCpuMs samples (a thread started between them counts from zero). */
function usedBetween(before: Map<number, { ms: number }>, after: Map<number, { name: string; ms: number }>) {
  return new Map(
    [...after].map(([tid, { name, ms }]) => [tid, { name, ms: ms - (before.get(tid)?.ms ?? 0) }] as const),
  );
}

export const debugChatCostCases: BenchCase[] = [
  {
    name: 'debug-chat.cost.cpu-per-turn',
    run: async (ctx) => {
      const { driven, intervalUs, result } = await costOfATurn(ctx);
      const table = breakdownTable(result);
      const sum = result.sumCheck.ok
        ? `sum check OK (largest gap ${result.sumCheck.worst})`
        : `SUM CHECK FAILED: ${result.sumCheck.worst}`;
      ctx.log(`debug chat cost, ${driven.turns} turns profiled:\n${table}\n  ${sum}`);
      return {
        figure: result.busyPerTurn,
        unit: 'µs/turn',
        note:
          `the server's CPU per turn, every thread, split by stage in the table below (each thread's CPU from /proc, ` +
          `shared out by its CPU profile); ${driven.turns} turns, ${CONVERSATIONS} conversations on ${TOPICS} topics, ` +
          `${(driven.turns / driven.elapsed).toFixed(0)} turns/s under the profiler (${intervalUs} µs samples); ${sum}`,
        table,
        details: { elapsed: driven.elapsed, intervalUs, ...result },
      };
    },
  },
];
