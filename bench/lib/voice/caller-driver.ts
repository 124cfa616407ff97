/**
 * The voice bench's callers, run as their own process (node dist/bench/lib/voice/caller-driver.js
 * <plan.json>) so their RTP pacing and packet handling do not share the server's event loop or its
 * CPU figure. Places `calls` SIP calls at once (starts spread over `staggerMs`); each waits for the
 * greeting to finish, then `turns` times says a pre-rendered utterance and times the wait from its
 * last packet sent to the first voiced packet of the answer, lets the answer finish, and hangs up.
 * Prints one JSON line (CallerDriverResult).
 */
import fs from 'node:fs';
import { performance } from 'node:perf_hooks';
import { CallerUa } from './caller-ua';

export interface CallerPlan {
  sipPort: number;
  number: string;
  /** one caller number per call (a call's conversation is found by it) */
  froms: string[];
  turns: number;
  /** 8 kHz 16-bit little-endian PCM, base64, each cut at its last voiced frame */
  utterances: string[];
  staggerMs: number;
  /** the agent has finished speaking after this long without a voiced packet */
  quietMs: number;
  /** a turn whose answer has not started this long after the utterance is unanswered */
  answerDeadlineMs: number;
}

interface CallerResult {
  from: string;
  status: number;
  /** each answered turn's wait, ms: last utterance packet sent → first voiced answer packet received */
  waitsMs: number[];
  unanswered: number;
  /** from the 200 to the BYE */
  seconds: number;
  error?: string;
}

export interface CallerDriverResult {
  calls: CallerResult[];
  elapsed: number;
  /** this process's own CPU, ms: the server's parent counts it among its finished children's */
  cpuMs: number;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** resolves true once `ready()` holds, false if `ms` passed first (polled every 20 ms: bounded) */
async function until(ready: () => boolean, ms: number): Promise<boolean> {
  const deadline = performance.now() + ms;
  while (!ready()) {
    if (performance.now() > deadline) return false;
    await sleep(20);
  }
  return true;
}

function within<T>(promise: Promise<T>, ms: number): Promise<T | null> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([promise, new Promise<null>((resolve) => (timer = setTimeout(() => resolve(null), ms)))]).finally(
    () => clearTimeout(timer),
  );
}

/** every open call's next packet, every 20 ms on one clock; catches up at most 5 packets after a stall */
function startPacing(active: Set<CallerUa>): () => void {
  const start = performance.now();
  let sent = 0;
  let timer: NodeJS.Timeout;
  const pace = () => {
    const due = Math.floor((performance.now() - start) / 20);
    for (let n = 0; sent < due && n < 5; n++, sent++) for (const ua of active) ua.tick();
    sent = Math.max(sent, due);
    timer = setTimeout(pace, Math.max(0, start + (sent + 1) * 20 - performance.now()));
  };
  timer = setTimeout(pace, 20);
  return () => clearTimeout(timer);
}

async function oneCall(plan: CallerPlan, index: number, active: Set<CallerUa>): Promise<CallerResult> {
  const from = plan.froms[index];
  const result: CallerResult = { from, status: 0, waitsMs: [], unanswered: plan.turns, seconds: 0 };
  const utterances = plan.utterances.map((b64) => {
    const bytes = Buffer.from(b64, 'base64');
    return new Int16Array(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength));
  });
  await sleep((index * plan.staggerMs) / Math.max(1, plan.froms.length));
  const ua = await CallerUa.open();
  try {
    result.status = (await within(ua.call(plan.sipPort, plan.number, from), 10_000)) ?? 408;
    if (result.status !== 200) return result;
    active.add(ua);
    const answeredAt = performance.now();
    // the greeting: heard, then finished (speaking over it would be barge-in)
    if (!(await until(() => ua.watch.voiced > 0, plan.answerDeadlineMs))) throw new Error('no greeting');
    await until(() => ua.watch.quietFor(performance.now()) >= plan.quietMs, 30_000);
    for (let turn = 0; turn < plan.turns && !ua.hungUpByParley; turn++) {
      const endedAt = await ua.say(utterances[(index + turn) % utterances.length]);
      ua.watch.arm(endedAt);
      const first = await within(ua.watch.firstVoicedAfter(), plan.answerDeadlineMs);
      if (first !== null) {
        result.waitsMs.push(first - endedAt);
        result.unanswered--;
      }
      await until(() => ua.watch.quietFor(performance.now()) >= plan.quietMs, 30_000);
    }
    ua.hangUp();
    result.seconds = (performance.now() - answeredAt) / 1000;
    await sleep(200);
    return result;
  } catch (error) {
    result.error = (error as Error).message;
    ua.hangUp();
    return result;
  } finally {
    active.delete(ua);
    await ua.close();
  }
}

async function main(planFile: string): Promise<void> {
  const plan = JSON.parse(fs.readFileSync(planFile, 'utf8')) as CallerPlan;
  const active = new Set<CallerUa>();
  const stopPacing = startPacing(active);
  const t0 = performance.now();
  const calls = await Promise.all(plan.froms.map((_, i) => oneCall(plan, i, active)));
  stopPacing();
  const cpu = process.cpuUsage();
  const out: CallerDriverResult = {
    calls,
    elapsed: (performance.now() - t0) / 1000,
    cpuMs: (cpu.user + cpu.system) / 1000,
  };
  process.stdout.write(`${JSON.stringify(out)}\n`);
}

main(process.argv[2]).catch((error: Error) => {
  process.stderr.write(`${error.stack ?? error.message}\n`);
  process.exit(1);
});
