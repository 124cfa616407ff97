import { execFile, execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { SipServer } from '../../src/sip/sip-server';
import type { VoiceSeam } from '../../src/sip/voice-seam.module';
import { EspeakSynthesizer } from '../../src/voice/speech/espeak-synthesizer';
import type { BenchCase, Result } from '../lib/case';
import type { BenchContext } from '../lib/context';
import { seedAccount, startBenchApp, type BenchApp } from '../lib/http-app';
import { cpuBetween, threadCpuMs } from '../lib/thread-cpu';
import { trimTrailingSilence, voicedSpan } from '../lib/voice/agent-audio';
import type { CallerDriverResult, CallerPlan } from '../lib/voice/caller-driver';
import { callsHeld, holds, nextLevel, p95Of, percentile, type LevelOutcome } from '../lib/voice/ramp';
import { StubRecognizer, StubSynthesizer, STUB_ASR_DELAY_MS } from '../lib/voice/stub-speech';

/** issue 36: end of the caller's utterance → first agent audio, p95 */
const VOICE_P95_LIMIT_MS = 1500;
const STEPS = [1, 2, 4, 8, 16, 32, 64];
/** --quick: under two minutes for both cases together (each level is a whole call of real-time audio) */
const QUICK_STEPS = { embedded: [1, 4], stubbed: [1, 4, 16] };
const NUMBER = '+15550400004';
const GREETING = 'Hello.';
/** the callers' questions, each an example query of its topic, of distinct lengths (the stub ASR tells them apart so) */
const TOPICS = [
  { name: 'Opening hours', content: 'We are open from nine to five.', query: 'What are your opening hours?' },
  { name: 'Office', content: 'Our office is in the city centre.', query: 'Where is the office?' },
  {
    name: 'Refunds',
    content: 'Refunds reach your card within five days.',
    query: 'How long does a refund take to reach my card?',
  },
];
/** the server's end-of-utterance wait (its default): part of every turn's wait the caller measures */
const END_OF_UTTERANCE_MS = 600;
/** RTP ports of the server (the callers bind any free port) */
const RTP_PORTS = { min: 40000, max: 48000 };
const STAGES = ['asr', 'retrieval', 'generation', 'tts', 'first_audio'] as const;
/** a level that has not finished in this long is broken, not slow */
const LEVEL_DEADLINE_MS = 10 * 60_000;

type Engines = 'embedded' | 'stubbed';

interface Level extends LevelOutcome {
  p50: number;
  meanWaitMs: number;
  /** the server's event-loop delay over the level, p99 ms: a late timer delays every 20 ms frame behind it */
  loopDelayP99Ms: number;
  p95: number;
  calls: number;
  callSeconds: number;
  /** the server process's CPU (every thread) per call-second, ms */
  serverCpuMsPerCallSecond: number | null;
  /** the speech engines' child processes (pocketsphinx, espeak-ng) per call-second, ms */
  speechCpuMsPerCallSecond: number | null;
  /** each stage's mean over the level's user turns, ms (from the Conversations API) */
  stagesMs: Partial<Record<(typeof STAGES)[number], number>>;
  turnsRead: number;
  errors: string[];
}

interface Figures {
  levels: Level[];
  held: number;
  skipped?: string;
}

const installed = (bin: string) => {
  try {
    execFileSync('sh', ['-c', `command -v ${bin}`]);
    return true;
  } catch {
    return false;
  }
};

/** CPU ms of this process's finished children (the speech engines' processes), from /proc; null elsewhere */
function childrenCpuMs(): number | null {
  try {
    const stat = fs.readFileSync('/proc/self/stat', 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // cutime and cstime: the 16th and 17th fields of stat, the 14th and 15th after the name
    return (Number(fields[13]) + Number(fields[14])) * 10;
  } catch {
    return null;
  }
}

function runCallers(planFile: string, plan: CallerPlan): Promise<CallerDriverResult> {
  fs.writeFileSync(planFile, JSON.stringify(plan));
  const driver = path.join(__dirname, '../lib/voice/caller-driver.js');
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      [driver, planFile],
      { maxBuffer: 16 << 20, timeout: LEVEL_DEADLINE_MS },
      (error, stdout, stderr) => {
        if (error) return reject(new Error(`voice caller driver failed: ${stderr || error.message}`));
        resolve(JSON.parse(stdout) as CallerDriverResult);
      },
    );
  });
}

const pcmBase64 = (pcm: Int16Array) => Buffer.from(pcm.buffer, pcm.byteOffset, pcm.byteLength).toString('base64');

interface Line {
  app: BenchApp;
  sipPort: number;
  accountId: string;
  agentId: string;
  key: string;
}

/** A server with SIP on, an agent of three topics on a dev number, the account's limit above any level. */
async function openLine(ctx: BenchContext, engines: Engines, voice: VoiceSeam): Promise<Line> {
  // VoiceModule reads the voice settings from the process environment (src/voice/voice-config.ts)
  process.env.RTP_PORT_MIN = String(RTP_PORTS.min);
  process.env.RTP_PORT_MAX = String(RTP_PORTS.max);
  process.env.VOICE_END_OF_UTTERANCE_MS = String(END_OF_UTTERANCE_MS);
  const app = await startBenchApp(
    ctx.file(`voice-${engines}`),
    // every caller is 127.0.0.1, as behind one trunk: the per-source flood limit must not count them as a flood
    { SIP_LISTEN_PORT: '0', SIP_RATE_PER_SOURCE: '1000000', SIP_MAX_CALLS: '1000' },
    [],
    voice,
  );
  try {
    const { accountId, key } = await seedAccount(app);
    const h = { 'x-api-key': key };
    const op = { 'x-operator-token': app.operatorToken };
    const agent = await app.call<{ agentId: string }>('POST', `/v1/accounts/${accountId}/agents`, h, {
      name: 'voice line',
      responseSettings: { greeting: GREETING },
    });
    const branch = await app.call<{ branchId: string }>('POST', `/v1/agents/${agent.agentId}/branches`, h, {
      branchName: 'first',
    });
    for (const t of TOPICS)
      await app.call('POST', `/v1/agents/${agent.agentId}/branches/${branch.branchId}/knowledge-base/topics`, h, {
        name: t.name,
        content: t.content,
        exampleQueries: { queries: [t.query] },
      });
    await app.call('POST', `/v1/agents/${agent.agentId}/branches/${branch.branchId}/merge`, h, {
      deploymentMessage: 'first',
    });
    await app.call('POST', `/admin/v1/agents/${agent.agentId}/phone-numbers`, op, {
      number: NUMBER,
      environment: 'dev',
    });
    await app.call('PUT', `/admin/v1/accounts/${accountId}/limits`, op, { concurrent_calls: 500 });
    await app.call('PUT', `/v1/accounts/${accountId}/agents/${agent.agentId}/data-access`, h, {
      response_metrics: [],
      show_transcripts: true,
    });
    const sipPort = app.nest.get(SipServer).address()?.port;
    if (!sipPort) throw new Error('the SIP server is not listening');
    return { app, sipPort, accountId, agentId: agent.agentId, key };
  } catch (error) {
    await app.close();
    throw error;
  }
}

interface ListedTurn {
  user_input?: string | null;
  latency?: { stages?: Record<string, number> } | null;
}
interface Listed {
  from_number?: string;
  in_progress?: boolean;
  turns?: ListedTurn[];
}

/**
 * The level's conversations once every call has ended (bounded: 30 s), and each speech stage's mean
 * over their user turns (the greeting, turn 0, has none).
 */
async function stagesOf(line: Line, froms: string[]): Promise<{ stagesMs: Level['stagesMs']; turnsRead: number }> {
  const wanted = new Set(froms);
  let found: Listed[] = [];
  for (let waited = 0; waited < 30_000; waited += 250) {
    const list = await line.app.call<{ conversations: Listed[] }>(
      'GET',
      `/v3/${line.accountId}/${line.agentId}/conversations?client_env=sandbox&include_latency=true&limit=5000`,
      { 'x-api-key': line.key },
    );
    found = list.conversations.filter((c) => c.from_number && wanted.has(c.from_number));
    if (found.length >= wanted.size && found.every((c) => !c.in_progress)) break;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  const sums = new Map<string, { sum: number; n: number }>();
  let turnsRead = 0;
  for (const c of found)
    for (const turn of (c.turns ?? []).slice(1)) {
      const stages = turn.latency?.stages;
      if (!stages) continue;
      turnsRead++;
      for (const stage of STAGES) {
        if (typeof stages[stage] !== 'number') continue;
        const s = sums.get(stage) ?? { sum: 0, n: 0 };
        s.sum += stages[stage] * 1000;
        s.n++;
        sums.set(stage, s);
      }
    }
  return { stagesMs: Object.fromEntries([...sums].map(([k, { sum, n }]) => [k, sum / n])), turnsRead };
}

async function runLevel(
  ctx: BenchContext,
  line: Line,
  utterances: Int16Array[],
  calls: number,
  turns: number,
  tag: string,
): Promise<Level> {
  const froms = Array.from({ length: calls }, (_, i) => `+1555${tag}${String(i).padStart(4, '0')}`);
  const plan: CallerPlan = {
    sipPort: line.sipPort,
    number: NUMBER,
    froms,
    turns,
    utterances: utterances.map(pcmBase64),
    // real callers do not all dial in the same millisecond; a second's spread still overlaps every call
    staggerMs: 1000,
    quietMs: 800,
    answerDeadlineMs: 15_000,
  };
  const threadsBefore = threadCpuMs();
  const childrenBefore = childrenCpuMs();
  const loopDelay = monitorEventLoopDelay({ resolution: 10 });
  loopDelay.enable();
  const driven = await runCallers(ctx.file(`voice-plan-${tag}.json`), plan).finally(() => loopDelay.disable());
  const { mainMs, othersMs } = cpuBetween(threadsBefore, threadCpuMs());
  const childrenAfter = childrenCpuMs();
  const waitsMs = driven.calls.flatMap((c) => c.waitsMs);
  const callSeconds = driven.calls.reduce((sum, c) => sum + c.seconds, 0);
  const outcome: LevelOutcome = {
    calls,
    waitsMs,
    unanswered: driven.calls.reduce((sum, c) => sum + c.unanswered, 0),
  };
  const { stagesMs, turnsRead } = await stagesOf(line, froms);
  const perCallSecond = (ms: number | null) => (ms === null || callSeconds === 0 ? null : ms / callSeconds);
  return {
    ...outcome,
    p50: percentile(waitsMs, 0.5),
    meanWaitMs: waitsMs.reduce((sum, w) => sum + w, 0) / waitsMs.length,
    loopDelayP99Ms: loopDelay.percentile(99) / 1e6,
    p95: p95Of(outcome),
    callSeconds,
    serverCpuMsPerCallSecond: perCallSecond(mainMs === null || othersMs === null ? null : mainMs + othersMs),
    // the callers' process is one of the finished children too: what is left is the speech engines'
    speechCpuMsPerCallSecond: perCallSecond(
      childrenBefore === null || childrenAfter === null
        ? null
        : Math.max(0, childrenAfter - childrenBefore - driven.cpuMs),
    ),
    stagesMs,
    turnsRead,
    errors: driven.calls
      .filter((c) => c.status !== 200 || c.error)
      .slice(0, 5)
      .map((c) => `${c.from}: ${c.status}${c.error ? ` ${c.error}` : ''}`),
  };
}

/** Renders each question once with espeak-ng (the same engine the embedded line speaks with) */
async function renderQuestions(): Promise<Int16Array[]> {
  const espeak = new EspeakSynthesizer('espeak-ng', 'en-us');
  const out: Int16Array[] = [];
  for (const t of TOPICS) out.push(trimTrailingSilence(await espeak.synthesize(t.query)));
  return out;
}

/**
 * The ramp for one set of speech engines: a warm-up call, then 1, 2, 4 … calls at once, each caller
 * saying `turns` questions, stopping after the first level whose p95 wait is over the limit.
 */
async function measure(ctx: BenchContext, engines: Engines): Promise<Figures> {
  return ctx.shared(`voice-${engines}`, async () => {
    const needed = engines === 'embedded' ? ['espeak-ng', 'pocketsphinx_continuous'] : ['espeak-ng'];
    const missing = needed.filter((bin) => !installed(bin));
    if (missing.length > 0) return { levels: [], held: 0, skipped: `${missing.join(', ')} not installed` };
    const utterances = await renderQuestions();
    const voice: VoiceSeam =
      engines === 'stubbed'
        ? {
            speech: {
              recognizer: new StubRecognizer(
                TOPICS.map((t, i) => ({ text: t.query, samples: voicedSpan(utterances[i]) })),
              ),
              synthesizer: new StubSynthesizer(),
            },
          }
        : {};
    const line = await openLine(ctx, engines, voice);
    try {
      const turns = ctx.quick ? 2 : 3;
      const steps = ctx.quick ? QUICK_STEPS[engines] : STEPS;
      // warm-up: the retrieval index, the recognition hints, the JIT, the engines' first start
      await runLevel(ctx, line, utterances, 1, 1, `${engines === 'embedded' ? 1 : 2}000`);
      const levels: Level[] = [];
      for (let calls = nextLevel(levels, steps, VOICE_P95_LIMIT_MS); calls !== null;) {
        const level = await runLevel(
          ctx,
          line,
          utterances,
          calls,
          turns,
          `${engines === 'embedded' ? 1 : 2}${String(levels.length + 1).padStart(3, '0')}`,
        );
        levels.push(level);
        ctx.log(
          `voice ${engines}: ${calls} calls, p50 ${level.p50.toFixed(0)} ms, p95 ${level.p95.toFixed(0)} ms, ` +
            `${level.unanswered} unanswered, ${level.serverCpuMsPerCallSecond?.toFixed(1) ?? '?'} ms server CPU per call-second` +
            (level.errors.length ? `; ${level.errors.join('; ')}` : ''),
        );
        calls = nextLevel(levels, steps, VOICE_P95_LIMIT_MS);
      }
      return { levels, held: callsHeld(levels, VOICE_P95_LIMIT_MS) };
    } finally {
      await line.app.close();
    }
  });
}

const ms = (v: number | null | undefined, digits = 0) =>
  v === null || v === undefined || !Number.isFinite(v) ? '–' : v.toFixed(digits);

function table(engines: Engines, f: Figures): string {
  const rows = [
    `voice.calls.${engines}: per level (wait = caller's last utterance packet → first voiced answer packet; stages: Conversations API means, ms; the rest: mean wait − end of utterance − first_audio)`,
    '| calls | turns | p50 ms | p95 ms | unanswered | server CPU ms per call-s | speech engines CPU ms per call-s | asr | retrieval | generation | tts | first_audio | end of utterance | the rest | server loop delay p99 |',
    '| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
    ...f.levels.map(
      (l) =>
        `| ${l.calls}${holds(l, VOICE_P95_LIMIT_MS) ? '' : ' ✗'} | ${l.waitsMs.length + l.unanswered} | ${ms(l.p50)} | ${ms(l.p95)} | ${l.unanswered} | ${ms(l.serverCpuMsPerCallSecond, 1)} | ${ms(l.speechCpuMsPerCallSecond, 1)} | ` +
        STAGES.map((s) => ms(l.stagesMs[s], 1)).join(' | ') +
        ` | ${END_OF_UTTERANCE_MS} | ${ms(restMs(l), 1)} | ${ms(l.loopDelayP99Ms, 1)} |`,
    ),
  ];
  return rows.join('\n');
}

/**
 * The mean wait's part that no stage names: the caller's wait is the end-of-utterance silence, then
 * first_audio (detection → first packet sent); the rest is the server's jitter buffer (3 frames),
 * the network, and timers firing late on a busy machine.
 */
const restMs = (l: Level) =>
  l.stagesMs.first_audio === undefined ? null : l.meanWaitMs - END_OF_UTTERANCE_MS - l.stagesMs.first_audio;

/** the level the figure reports: the largest that held, or the first when none did */
const reported = (f: Figures) => f.levels.find((l) => l.calls === f.held) ?? f.levels[0];

function heldResult(engines: Engines, f: Figures): Result {
  if (f.skipped) return { figure: null, unit: 'calls', note: f.skipped };
  const at = reported(f);
  const stages = STAGES.map((s) => `${s} ${ms(at?.stagesMs[s])}`).join(', ');
  const speech =
    engines === 'stubbed'
      ? `STUB speech (ASR: the known text after ${STUB_ASR_DELAY_MS} ms; TTS: a fixed 0.6 s buffer): the platform's own cost`
      : 'embedded pocketsphinx + espeak-ng';
  return {
    figure: f.held,
    unit: 'calls',
    runs: f.levels.map((l) => Math.round(l.p95)),
    note:
      `${speech}; largest N with p95 ≤ ${VOICE_P95_LIMIT_MS} ms (runs: p95 ms per level), the wait includes the server's ${END_OF_UTTERANCE_MS} ms end-of-utterance silence; ` +
      `at ${at?.calls ?? 0}: stages ms ${stages}; server CPU ${ms(at?.serverCpuMsPerCallSecond, 1)} ms per call-second` +
      (engines === 'embedded' ? ` + speech engines ${ms(at?.speechCpuMsPerCallSecond, 1)}` : ''),
    table: table(engines, f),
    details: { levels: f.levels, limitMs: VOICE_P95_LIMIT_MS, endOfUtteranceMs: END_OF_UTTERANCE_MS },
  };
}

function p95Result(f: Figures): Result {
  if (f.skipped) return { figure: null, unit: 'ms', note: f.skipped };
  const at = reported(f);
  return {
    figure: at && Number.isFinite(at.p95) ? Math.round(at.p95) : null,
    unit: 'ms',
    note: `p95 wait at ${at?.calls ?? 0} calls (the reported N; the first level when none held), p50 ${ms(at?.p50)} ms`,
  };
}

export const voiceCases: BenchCase[] = (['embedded', 'stubbed'] as const).flatMap((engines) => [
  {
    name: `voice.calls.${engines}`,
    run: async (ctx: BenchContext) => heldResult(engines, await measure(ctx, engines)),
  },
  { name: `voice.calls.${engines}.p95`, run: async (ctx: BenchContext) => p95Result(await measure(ctx, engines)) },
]);
