import type { BenchCase } from '../lib/case';
import type { BenchContext } from '../lib/context';
import { seedAccount, startBenchApp, type BenchApp } from '../lib/http-app';
import { median, withDeadline } from '../lib/measure';

/** Calls placed at once in a round (issue 33), and the account limit raised to hold them all. */
const CALLS = 200;
const NUMBER = '+15550100001';
const UTTERANCES = ['when do you open', 'how do refunds work'];
/** The agent's greeting is a turn, then one per utterance (docs/api/inbound-calls.md). */
const TURNS = 1 + UTTERANCES.length;
/** A round that has not answered in this long is broken, not slow. */
const ROUND_DEADLINE_MS = 5 * 60_000;

interface Answer {
  status: number;
  body: { call_sid?: string; status?: string; reason?: string | null } | null;
}

interface Round {
  seconds: number;
  callsPerSecond: number;
  /** calls that did not answer 201 `ended`, were not readable with every turn, or repeated a call_sid */
  lost: number;
  /** why each lost call was lost (the first few) */
  losses: string[];
  /** in_progress right after the last answer, and how long it took to reach 0 (null: it never did) */
  inProgressAtEnd: number;
  msToZero: number | null;
}

interface Figures {
  rounds: Round[];
}

async function post(app: BenchApp, route: string, headers: Record<string, string>, body: unknown): Promise<Answer> {
  const response = await fetch(`${app.url}${route}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  try {
    return { status: response.status, body: text ? (JSON.parse(text) as Answer['body']) : null };
  } catch {
    return { status: response.status, body: null };
  }
}

/** An app with an agent on sandbox answering a dev number, the account's limit at CALLS. */
async function setUp(ctx: BenchContext) {
  const app = await startBenchApp(ctx.file('inbound-calls'));
  try {
    const { accountId, key } = await seedAccount(app);
    const h = { 'x-api-key': key };
    const op = { 'x-operator-token': app.operatorToken };
    const agent = await app.call<{ agentId: string }>('POST', `/v1/accounts/${accountId}/agents`, h, {
      name: 'line',
      responseSettings: { greeting: 'Hello, the bench line here.' },
    });
    const branch = await app.call<{ branchId: string }>('POST', `/v1/agents/${agent.agentId}/branches`, h, {
      branchName: 'first',
    });
    const topics = [
      { name: 'Opening hours', content: 'We open at nine.', queries: ['when do you open'] },
      { name: 'Refunds', content: 'Refunds reach your card in five days.', queries: ['how do refunds work'] },
    ];
    for (const t of topics)
      await app.call('POST', `/v1/agents/${agent.agentId}/branches/${branch.branchId}/knowledge-base/topics`, h, {
        name: t.name,
        content: t.content,
        exampleQueries: { queries: t.queries },
      });
    await app.call('POST', `/v1/agents/${agent.agentId}/branches/${branch.branchId}/merge`, h, {
      deploymentMessage: 'first',
    });
    await app.call('POST', `/admin/v1/agents/${agent.agentId}/phone-numbers`, op, {
      number: NUMBER,
      environment: 'dev',
    });
    await app.call('PUT', `/admin/v1/accounts/${accountId}/limits`, op, { concurrent_calls: CALLS });
    return { app, accountId, agentId: agent.agentId, key, op };
  } catch (error) {
    await app.close();
    throw error;
  }
}

/**
 * 200 simulated inbound calls at once through the embedded carrier's operator route (contract
 * §18), each greeted, asked two questions and hung up on, on an account whose limit is exactly
 * 200: a line not given back at the end of a call refuses a later one. A call counts as lost
 * unless it answered 201 `ended` and its conversation reads back with every turn; after the
 * round the account's `in_progress` must be 0.
 */
async function measure(ctx: BenchContext): Promise<Figures> {
  return ctx.shared('inbound-calls', async () => {
    const { app, accountId, agentId, key, op } = await setUp(ctx);
    const h = { 'x-api-key': key };
    let caller = 0;
    const call = () =>
      post(app, '/admin/v1/carrier/inbound-calls', op, {
        from: `+1555700${String(caller++ % 10_000).padStart(4, '0')}`,
        to: NUMBER,
        utterances: UTTERANCES,
      });
    try {
      // warm-up: the retrieval index, the JIT
      for (let i = 0; i < 5; i++) await call();
      const rounds: Round[] = [];
      for (let round = 0; round < (ctx.quick ? 1 : 3); round++) {
        const t0 = performance.now();
        const answers = await withDeadline(
          Promise.all(Array.from({ length: CALLS }, () => call())),
          ROUND_DEADLINE_MS,
          `${CALLS} inbound calls`,
        );
        const seconds = (performance.now() - t0) / 1000;
        const limits = await app.call<{ in_progress: number }>('GET', `/v1/accounts/${accountId}/limits`, h);
        const inProgressAtEnd = limits.in_progress;
        let msToZero: number | null = inProgressAtEnd === 0 ? 0 : null;
        // Bounded: a line still held 10 s after every call answered is a line lost.
        for (let waited = 0; msToZero === null && waited < 10_000; waited += 100) {
          await new Promise((resolve) => setTimeout(resolve, 100));
          const now = await app.call<{ in_progress: number }>('GET', `/v1/accounts/${accountId}/limits`, h);
          if (now.in_progress === 0) msToZero = waited + 100;
        }
        const losses: string[] = [];
        const seen = new Set<string>();
        for (const a of answers) {
          const sid = a.body?.call_sid;
          if (a.status !== 201 || a.body?.status !== 'ended' || !sid) {
            losses.push(`${a.status} ${JSON.stringify(a.body)}`);
            continue;
          }
          if (seen.has(sid)) {
            losses.push(`call_sid ${sid} answered twice`);
            continue;
          }
          seen.add(sid);
          const read = await fetch(`${app.url}/v3/${accountId}/${agentId}/conversations/${sid}`, { headers: h });
          const body = (await read.json().catch(() => null)) as { num_turns?: number } | null;
          if (read.status !== 200 || body?.num_turns !== TURNS)
            losses.push(`${sid}: conversation ${read.status}, num_turns ${body?.num_turns}`);
        }
        rounds.push({
          seconds,
          callsPerSecond: CALLS / seconds,
          lost: losses.length,
          losses: losses.slice(0, 5),
          inProgressAtEnd,
          msToZero,
        });
        ctx.log(
          `inbound calls: round ${round + 1}: ${CALLS} in ${seconds.toFixed(2)} s, ${losses.length} lost, in_progress ${inProgressAtEnd} at the end`,
        );
      }
      return { rounds };
    } finally {
      await app.close();
    }
  });
}

const lostIn = (f: Figures) => f.rounds.reduce((sum, r) => sum + r.lost + (r.msToZero === null ? 1 : 0), 0);

export const inboundCallsCases: BenchCase[] = [
  {
    name: 'inbound-calls.200-at-once',
    async run(ctx) {
      const f = await measure(ctx);
      const lost = lostIn(f);
      // A lost call breaks the case: the rate of a run that drops calls is no figure.
      if (lost > 0)
        throw new Error(
          `inbound calls lost: ${f.rounds.map((r) => `${r.lost} (${r.losses.join('; ')}), in_progress ${r.inProgressAtEnd} at the end, ${r.msToZero === null ? 'never 0' : `0 after ${r.msToZero} ms`}`).join(' | ')}`,
        );
      const walls = f.rounds.map((r) => r.seconds);
      return {
        figure: median(f.rounds.map((r) => r.callsPerSecond)),
        unit: 'calls/s',
        runs: f.rounds.map((r) => +r.callsPerSecond.toFixed(1)),
        note: `${CALLS} simulated inbound calls at once (operator route, ${UTTERANCES.length} utterances and the hang-up each, limit ${CALLS}), wall ${walls.map((s) => `${s.toFixed(2)} s`).join(', ')}; every call ended and read back with ${TURNS} turns, in_progress 0 after${f.rounds.some((r) => r.msToZero! > 0) ? ` (after ${f.rounds.map((r) => r.msToZero).join(', ')} ms)` : ''}`,
        details: { rounds: f.rounds },
      };
    },
  },
  {
    name: 'inbound-calls.200-at-once.lost',
    async run(ctx) {
      const f = await measure(ctx);
      return {
        figure: lostIn(f),
        unit: 'calls',
        note: 'calls not ended or not read back with every turn, and rounds whose in_progress did not return to 0 within 10 s',
        details: { rounds: f.rounds.map((r) => ({ lost: r.lost, losses: r.losses, msToZero: r.msToZero })) },
      };
    },
  },
];
