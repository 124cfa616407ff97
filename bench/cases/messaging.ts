import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import readline from 'node:readline';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { syntheticKnowledgeBase } from '../../src/runtime/retrieval/synthetic';
import type { BenchCase } from '../lib/case';
import { describePauses, watchPauses, type PauseReport } from '../lib/pause-watch';
import { median } from '../lib/measure';
import { startProfile } from '../lib/profile';
import { cpuBetween, threadCpuMs } from '../lib/thread-cpu';
import type { BenchContext } from '../lib/context';
import { seedAccount, startBenchApp } from '../lib/http-app';
import { LOAD_ENDS, LOAD_STARTS, type MessagingDriverResult, type MessagingPlan } from '../lib/messaging-driver';

const TOPICS = 50;
const HOST = 'chat.bench.example';

interface RoundFigures extends MessagingDriverResult {
  rssPeakMiB: number;
  rssEndMiB: number;
  /** the server's event-loop delay during the load: what queues behind synchronous work */
  loopDelayP99Ms: number;
  loopDelayMaxMs: number;
}

/** Runs the driver; `phase` is called at the bounds of its load phase (LOAD_STARTS, LOAD_ENDS). */
function runDriver(
  planFile: string,
  plan: MessagingPlan,
  phase: (line: string) => void,
): Promise<MessagingDriverResult> {
  fs.writeFileSync(planFile, JSON.stringify(plan));
  const driver = path.join(__dirname, '../lib/messaging-driver.js');
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [driver, planFile], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    let result: MessagingDriverResult | null = null;
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    readline.createInterface({ input: child.stdout }).on('line', (line) => {
      if (line === LOAD_STARTS || line === LOAD_ENDS) phase(line);
      else if (line.startsWith('{')) result = JSON.parse(line) as MessagingDriverResult;
    });
    child.on('error', reject);
    child.on('close', (code) => {
      if (code === 0 && result) resolve(result);
      else reject(new Error(`messaging driver failed (exit ${code}): ${stderr}`));
    });
  });
}

const mib = (bytes: number) => bytes / (1024 * 1024);

/**
 * Web chat end to end: 1,000 sessions (100 with --quick), each a WebSocket sending a message a
 * second for 30 s (5 s with --quick) to an agent with 50 topics. Every message is a real turn:
 * retrieval, the answer, the conversation and the session streams appended at FULL durability,
 * the answer delivered from the log's subscription. The server is this process (RSS sampled
 * during the load); the clients are another.
 */
async function messagingRound(ctx: BenchContext, round: number): Promise<RoundFigures> {
  const app = await startBenchApp(ctx.file(`messaging-${round}`));
  try {
    const { accountId, key } = await seedAccount(app);
    const h = { 'x-api-key': key };
    const kb = syntheticKnowledgeBase(TOPICS + 10, 400, 11);
    const names = new Set<string>();
    const topics = kb.topics.filter((t) => !names.has(t.name) && names.add(t.name)).slice(0, TOPICS);
    const agent = await app.call<{ agentId: string }>('POST', `/v1/accounts/${accountId}/agents`, h, {
      name: 'web',
      responseSettings: { greeting: 'Hello! How can I help?' },
    });
    const branch = await app.call<{ branchId: string }>('POST', `/v1/agents/${agent.agentId}/branches`, h, {
      branchName: 'kb',
    });
    for (const t of topics) {
      await app.call('POST', `/v1/agents/${agent.agentId}/branches/${branch.branchId}/knowledge-base/topics`, h, {
        name: t.name,
        content: t.content,
        exampleQueries: { queries: t.exampleQueries.slice(0, 50) },
      });
    }
    await app.call('POST', `/v1/agents/${agent.agentId}/branches/${branch.branchId}/merge`, h, {
      deploymentMessage: 'kb',
    });
    const connector = await app.call<{ connectorToken: string }>(
      'POST',
      `/admin/v1/accounts/${accountId}/connectors`,
      { 'x-operator-token': app.operatorToken },
      { agentId: agent.agentId, kind: 'messaging', environment: 'sandbox', hostDomain: HOST },
    );
    const sessions = Number(process.env.BENCH_MESSAGING_SESSIONS) || (ctx.quick ? 100 : 1000);
    const seconds = Number(process.env.BENCH_MESSAGING_SECONDS) || (ctx.quick ? 5 : 30);
    ctx.log(`messaging round ${round}: ${sessions} sessions, one message a second each for ${seconds} s`);
    let rssPeak = process.memoryUsage.rss();
    const sampler = setInterval(() => (rssPeak = Math.max(rssPeak, process.memoryUsage.rss())), 250);
    const loop = monitorEventLoopDelay({ resolution: 5 });
    loop.enable();
    try {
      // CPU and profile over the load phase alone: opening the sessions is a different workload
      let loadStart: Map<number, number> | null = null;
      let loadEnd: Map<number, number> | null = null;
      let profile: Promise<() => Promise<void>> | null = null;
      let profileWritten: Promise<void> | null = null;
      let stopWatching: (() => PauseReport) | null = null;
      let pauses: PauseReport | null = null;
      const stopProfile = () => {
        if (!profileWritten && profile) {
          profileWritten = profile.then((stop) => stop());
          profileWritten.catch(() => undefined); // handled: the finally below awaits it
        }
        return profileWritten;
      };
      let r: MessagingDriverResult;
      try {
        r = await runDriver(
          ctx.file(`messaging-plan-${round}.json`),
          {
            url: app.url,
            connectorToken: connector.connectorToken,
            host: HOST,
            sessions,
            seconds,
            queries: kb.queries,
          },
          (line) => {
            if (line === LOAD_STARTS) {
              loadStart = threadCpuMs();
              stopWatching = watchPauses();
              profile = startProfile('messaging.sessions');
            } else {
              loadEnd = threadCpuMs();
              pauses = stopWatching?.() ?? null;
              void stopProfile();
            }
          },
        );
      } finally {
        // written before the app closes, and stopped even when the driver failed mid-load
        await stopProfile();
      }
      const { mainMs, othersMs } = cpuBetween(loadStart, loadEnd);
      if (r.failures > 0) throw new Error(`${r.failures} failures, first: ${r.firstFailure}`);
      loop.disable();
      const loopDelayP99Ms = loop.percentile(99) / 1e6;
      const loopDelayMaxMs = loop.max / 1e6;
      ctx.log(
        `messaging round ${round}: ${r.replies} answers in ${r.elapsed.toFixed(1)} s, p50 ${r.p50.toFixed(1)} ms, p99 ${r.p99.toFixed(1)} ms, max ${r.max.toFixed(0)} ms; setup ${r.setupSeconds.toFixed(1)} s; server loop delay p99 ${loopDelayP99Ms.toFixed(1)} ms, max ${loopDelayMaxMs.toFixed(0)} ms; client loop delay p99 ${r.clientLoopDelayP99Ms.toFixed(1)} ms, max ${r.clientLoopDelayMaxMs.toFixed(0)} ms${cpuPerMessage(mainMs, othersMs, r.messages)}${pauses ? `; ${describePauses(pauses)}` : ''}`,
      );
      return {
        ...r,
        rssPeakMiB: mib(rssPeak),
        rssEndMiB: mib(process.memoryUsage.rss()),
        loopDelayP99Ms,
        loopDelayMaxMs,
      };
    } finally {
      clearInterval(sampler);
      loop.disable();
    }
  } finally {
    await app.close();
  }
}

interface MessagingFigures {
  rounds: RoundFigures[];
  /** the median of the rounds' p99s */
  p99: number;
}

/**
 * The load, `BENCH_MESSAGING_ROUNDS` times (3; 1 with --quick), each on a fresh app. One round's
 * p99 is the worst 300 answers of 30 s, and on a shared 2-core machine a few event-loop pauses
 * decide it (about half of a pause is the loop waiting for a core, which pause-watch.ts shows), so
 * identical builds differ widely from round to round. The
 * median of the rounds is the figure, every round's is in the note; events lost are summed over
 * the rounds, and RSS is the worst round's.
 */
async function messagingLoad(ctx: BenchContext): Promise<MessagingFigures> {
  return ctx.shared('messaging', async () => {
    const count = Number(process.env.BENCH_MESSAGING_ROUNDS) || (ctx.quick ? 1 : 3);
    const rounds: RoundFigures[] = [];
    for (let round = 1; round <= count; round++) {
      // what the last round's app left behind is collected before the next one is measured
      (globalThis as { gc?: () => void }).gc?.();
      rounds.push(await messagingRound(ctx, round));
    }
    return { rounds, p99: median(rounds.map((r) => r.p99)) };
  });
}

const ms = (values: number[]) => values.map((v) => v.toFixed(1)).join(', ');

export const messagingCases: BenchCase[] = [
  {
    name: 'messaging.reply.p99',
    run: async (ctx) => {
      const { rounds, p99 } = await messagingLoad(ctx);
      const r = rounds[0];
      return {
        figure: p99,
        unit: 'ms',
        runs: rounds.map((x) => x.p99),
        note: `${r.sessions} WebSocket sessions x 1 msg/s for ${Math.round(r.elapsed)} s (client in its own process), median of ${rounds.length} rounds; p99 per round ${ms(rounds.map((x) => x.p99))}; p50 ${ms(rounds.map((x) => x.p50))}; max ${ms(rounds.map((x) => x.max))}; ${rounds.reduce((n, x) => n + x.replies, 0)} answers`,
        details: { rounds },
      };
    },
  },
  {
    name: 'messaging.events.lost',
    run: async (ctx) => {
      const { rounds } = await messagingLoad(ctx);
      const sum = (f: (r: RoundFigures) => number) => rounds.reduce((n, r) => n + f(r), 0);
      return {
        figure: sum((r) => r.missing + r.refused + r.outOfOrder + r.replayMismatches),
        unit: 'events',
        note: `over all ${rounds.length} rounds: unanswered ${sum((r) => r.missing)}, refused as high load ${sum((r) => r.refused)}, out of sequence ${sum((r) => r.outOfOrder)}, sessions whose live stream differs from the replay ${sum((r) => r.replayMismatches)}; same runs as messaging.reply.p99`,
      };
    },
  },
  {
    name: 'messaging.server.rss',
    run: async (ctx) => {
      const { rounds } = await messagingLoad(ctx);
      return {
        figure: Math.max(...rounds.map((r) => r.rssPeakMiB)),
        unit: 'MiB',
        note: `peak during the load, highest round (the server is the bench process; each round a fresh app): ${ms(rounds.map((r) => r.rssPeakMiB))}; ${ms(rounds.map((r) => r.rssEndMiB))} MiB after each; same runs as messaging.reply.p99`,
      };
    },
  },
];

/** The server's CPU per message sent in the load phase (each is answered: see messaging.events.lost). */
function cpuPerMessage(mainMs: number | null, othersMs: number | null, messages: number): string {
  if (mainMs === null || messages === 0) return '';
  return `; server CPU per message in the load phase: main thread ${((mainMs * 1000) / messages).toFixed(0)} µs, other threads ${((othersMs! * 1000) / messages).toFixed(0)} µs`;
}
