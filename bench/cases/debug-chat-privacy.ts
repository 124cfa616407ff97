import { conversationDecider, type TurnEffects } from '../../src/conversations/conversation.decider';
import type { ConversationEvent, TurnData } from '../../src/conversations/conversation.events';
import { REDACT_KINDS } from '../../src/privacy/redact-kinds';
import { syntheticKnowledgeBase } from '../../src/runtime/retrieval/synthetic';
import type { BenchCase } from '../lib/case';
import type { ChatPlan } from '../lib/chat-driver';
import type { BenchContext } from '../lib/context';
import { seedAccount, startBenchApp } from '../lib/http-app';
import { median } from '../lib/measure';
import { cpuDuring } from '../lib/thread-cpu';
import { CONVERSATIONS, knowledgeBaseAgent, openConversations, runDriver, TOPICS, warmUp } from './debug-chat';

/**
 * Rounds of each side, alternating (off on, on off, ...), and each round's length: many short
 * rounds, since the other tenants of the machine move the CPU a turn takes by a fifth within a
 * minute, and a pair of rounds seconds apart sees the same machine.
 */
const ROUNDS = { quick: 2, full: 10 };
const ROUND_S = { quick: 3, full: 3 };

/** Personal data of every kind, one value per message, as a user would write it. */
const PERSONAL: Array<(i: number) => string> = [
  (i) => `my email is client.${i}@example.com`,
  (i) => `call me on +44 20 7946 ${String(i % 10_000).padStart(4, '0')}`,
  () => 'my card is 4111 1111 1111 1111',
  () => 'refund it to GB82 WEST 1234 5698 7654 32',
  () => 'my ssn is 123-45-6789',
];

/** The synthetic questions, every other one followed by a value of one kind of personal data. */
export const withPersonalData = (queries: string[]) =>
  queries.map((q, i) => (i % 2 === 0 ? `${q} ${PERSONAL[(i / 2) % PERSONAL.length](i)}` : q));

interface Side {
  /** the server's CPU per turn, every thread (µs): each round's */
  cpuUsPerTurn: number[];
  turnsPerSecond: number[];
}

/**
 * What redaction costs a debug-chat turn (issue 49: at most 10% of the turn's CPU). One app, two
 * agents alike but for `privacy.redact` (off; every kind on), each with 32 open conversations
 * sending the same messages, half of them carrying personal data: the two loads run in alternating
 * rounds on the same app, so both see the same machine, and each round takes the server's CPU per
 * turn (every thread, from /proc) while one side's load runs alone.
 */
function privacyPair(ctx: BenchContext): Promise<{ off: Side; on: Side }> {
  return ctx.shared('debug-chat-privacy', async () => {
    const app = await startBenchApp(ctx.file('debug-chat-privacy'));
    try {
      const { accountId, key } = await seedAccount(app);
      const headers = { 'x-api-key': key };
      const seconds = ctx.quick ? ROUND_S.quick : ROUND_S.full;
      const planOf = async (settings?: Record<string, unknown>): Promise<ChatPlan> => {
        const { agentId, queries } = await knowledgeBaseAgent(ctx, app, headers, accountId, settings);
        const messages = withPersonalData(queries);
        const conversations = await openConversations(app, headers, agentId, messages);
        return { url: app.url, headers, agentId, clientEnv: 'sandbox', conversations, queries: messages, seconds };
      };
      const plans = { off: await planOf(), on: await planOf({ privacy: { redact: [...REDACT_KINDS] } }) };
      const sides: Record<'off' | 'on', Side> = {
        off: { cpuUsPerTurn: [], turnsPerSecond: [] },
        on: { cpuUsPerTurn: [], turnsPerSecond: [] },
      };
      for (const side of ['off', 'on'] as const) await warmUp(plans[side], ctx.file(`privacy-warm-${side}.json`));
      const rounds = ctx.quick ? ROUNDS.quick : ROUNDS.full;
      for (let round = 0; round < rounds; round++) {
        for (const side of round % 2 === 0 ? (['off', 'on'] as const) : (['on', 'off'] as const)) {
          const { result, mainMs, othersMs } = await cpuDuring(() =>
            runDriver(ctx.file(`privacy-${side}.json`), plans[side]),
          );
          if (result.failures > 0) throw new Error(`${side}: ${result.failures} turns failed: ${result.firstFailure}`);
          if (mainMs === null || othersMs === null) throw new Error('no /proc: the CPU per turn cannot be read here');
          const cpu = ((mainMs + othersMs) * 1000) / result.turns;
          sides[side].cpuUsPerTurn.push(cpu);
          sides[side].turnsPerSecond.push(result.turns / result.elapsed);
          ctx.log(
            `debug-chat.privacy.redact-${side} round ${round + 1}: ${cpu.toFixed(0)} µs CPU/turn, ` +
              `${(result.turns / result.elapsed).toFixed(0)} turns/s`,
          );
        }
      }
      return sides;
    } finally {
      await app.close();
    }
  });
}

/** A recorded turn's fields, as the embedded runtime fills them for an answer from a topic. */
export function turnOf(userInput: string, agentResponse: string): Omit<TurnData, 'turnIndex'> {
  const at = '2026-12-07T00:00:00.000Z';
  return {
    userInput,
    userInputAt: at,
    agentResponse,
    agentResponseAt: at,
    bargeIn: false,
    isSilence: false,
    isOod: false,
    intents: [],
    entities: {},
    retrievedTopics: ['a', 'b', 'c', 'd', 'e'],
    retrievedSources: ['t1', 't2', 't3', 't4', 't5'],
    citedTopic: 'a',
    currentNode: 'topic:a',
    nodeTrace: ['start', 'retrieval', 'topic:a'],
    functionEvents: [],
    functionErrors: 0,
    llmRequests: [],
    apiErrors: 0,
    latency: { total_s: 0.001, stages: { retrieval: 0.001, generation: 0, actions: 0 } },
    asrLangCode: 'en-GB',
    ttsLangCode: 'en-GB',
    inputMetadata: {},
    delayedResponse: false,
  };
}

/**
 * The redaction alone, without the machine's noise: the conversation decider deciding the same
 * turns (the bench's messages, answered with its topics' contents) on a conversation with every
 * kind on and on one without, in alternating rounds in this process; the difference per turn.
 */
/** A debug-chat turn's server CPU (µs, redaction off), when this run measures it. */
export async function turnCpuUs(ctx: BenchContext): Promise<number | null> {
  return ctx.selected('debug-chat.privacy.redact-off') ? median((await privacyPair(ctx)).off.cpuUsPerTurn) : null;
}

export function redactionPerTurn(ctx: BenchContext): { us: number; off: number; on: number } {
  const kb = syntheticKnowledgeBase(TOPICS + 50, 2000, 7);
  const turns = withPersonalData(kb.queries).map((q, i) => turnOf(q, kb.topics[i % kb.topics.length].content));
  const none: TurnEffects = { stateChanges: {}, metrics: [], awaited: [], handoff: null, ended: false };
  const conversation = (redact: boolean) => {
    const started = {
      conversationId: 'AS_CHAT_bench',
      accountId: 'ws-bench',
      agentId: 'PROJECT-bench',
      deploymentId: 'dep',
      version: 1,
      environment: 'sandbox',
      channel: 'CHAT' as const,
      fromNumber: '',
      toNumber: '',
      variantId: '',
      variantName: '',
      language: 'en-GB',
      startedAt: '2026-12-07T00:00:00.000Z',
      ...(redact ? { redact: [...REDACT_KINDS] } : {}),
    };
    const events: ConversationEvent[] = conversationDecider.decide(
      { type: 'StartConversation', started, initialState: {}, greeting: turnOf('', 'Hello!') },
      conversationDecider.initialState(),
    );
    return events.reduce(conversationDecider.evolve, conversationDecider.initialState());
  };
  const states = { off: conversation(false), on: conversation(true) };
  const passes = ctx.quick ? 5 : 20;
  const timed = (side: 'off' | 'on') => {
    const started = performance.now();
    for (let pass = 0; pass < passes; pass++)
      for (const turn of turns) conversationDecider.decide({ type: 'RecordTurn', turn, effects: none }, states[side]);
    return ((performance.now() - started) * 1000) / (passes * turns.length);
  };
  const samples = { off: [] as number[], on: [] as number[] };
  for (let round = 0; round < 8; round++)
    for (const side of round % 2 === 0 ? (['off', 'on'] as const) : (['on', 'off'] as const))
      samples[side].push(timed(side));
  const [off, on] = [median(samples.off), median(samples.on)];
  return { us: on - off, off, on };
}

const sideCase = (side: 'off' | 'on'): BenchCase => ({
  name: `debug-chat.privacy.redact-${side}`,
  run: async (ctx) => {
    const pair = await privacyPair(ctx);
    const mine = pair[side];
    const [off, on] = [median(pair.off.cpuUsPerTurn), median(pair.on.cpuUsPerTurn)];
    // each round's pair (the two sides seconds apart): the ratio drift between rounds cannot move
    const paired = median(pair.on.cpuUsPerTurn.map((cpu, i) => cpu / pair.off.cpuUsPerTurn[i]));
    return {
      figure: median(mine.cpuUsPerTurn),
      unit: 'µs CPU/turn',
      runs: mine.cpuUsPerTurn,
      note:
        `the server's CPU per debug-chat turn, every thread, privacy.redact ${side === 'on' ? 'on (every kind)' : 'off'}; ` +
        `${CONVERSATIONS} conversations on ${TOPICS} topics, half the messages carrying personal data, ` +
        `alternating rounds with the other side on the same app; on/off ${(on / off).toFixed(3)} ` +
        `(median of the rounds' pairs ${paired.toFixed(3)}); ` +
        `${median(mine.turnsPerSecond).toFixed(0)} turns/s`,
      details: { ...mine, pairedRatio: paired },
    };
  },
});

export const debugChatPrivacyCases: BenchCase[] = [
  sideCase('off'),
  sideCase('on'),
  {
    name: 'debug-chat.privacy.redaction-per-turn',
    run: async (ctx) => {
      const { us, off, on } = redactionPerTurn(ctx);
      const turnCpu = await turnCpuUs(ctx);
      return {
        figure: us,
        unit: 'µs/turn',
        note:
          `the conversation decider's RecordTurn with every privacy.redact kind on less with it off (${on.toFixed(1)} ` +
          `against ${off.toFixed(1)} µs), the bench's messages answered with its topics' contents, in process` +
          (turnCpu === null ? '' : `; ${((100 * us) / turnCpu).toFixed(1)}% of a turn's server CPU (redact-off)`),
      };
    },
  },
];
