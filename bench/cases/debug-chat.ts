import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { syntheticKnowledgeBase } from '../../src/runtime/retrieval/synthetic';
import type { BenchCase } from '../lib/case';
import { profiled } from '../lib/profile';
import { cpuDuring } from '../lib/thread-cpu';
import type { BenchContext } from '../lib/context';
import { seedAccount, startBenchApp } from '../lib/http-app';
import type { ChatDriverResult, ChatPlan } from '../lib/chat-driver';

export const CONVERSATIONS = 32;
export const TOPICS = 500;
/**
 * Turns served before a measured window: V8 tiers a function up by its calls, so the first few
 * thousand turns pay for compiling (on V8's helper threads, beside the two cores' real work) and for
 * unoptimised code. The figures are a server's steady state (bench/README.md, "JIT warm-up").
 */
const WARM_UP_TURNS = 5000;
const WARM_UP_MAX_S = 30;

interface ChatFigures {
  turnsPerSecond: number;
  p50: number;
  p99: number;
  turns: number;
  /** the server's main thread CPU per turn (µs): the event loop is what limits the rate */
  mainCpuUsPerTurn: number | null;
  /** the server's other threads (event store writer, read-model apply thread) per turn (µs) */
  otherCpuUsPerTurn: number | null;
}

/** The load generator in its own process, so the client's HTTP work does not share the server's event loop. */
export function runDriver(planFile: string, plan: ChatPlan): Promise<ChatDriverResult> {
  fs.writeFileSync(planFile, JSON.stringify(plan));
  const driver = path.join(__dirname, '../lib/chat-driver.js');
  return new Promise((resolve, reject) => {
    execFile(process.execPath, [driver, planFile], { maxBuffer: 1 << 20 }, (error, stdout, stderr) => {
      if (error) return reject(new Error(`chat driver failed: ${stderr || error.message}`));
      resolve(JSON.parse(stdout) as ChatDriverResult);
    });
  });
}

interface ChatSetup {
  app: Awaited<ReturnType<typeof startBenchApp>>;
  plan: ChatPlan;
  accountId: string;
}

/**
 * A server with an agent of 500 topics in sandbox and 32 open debug-chat conversations, each warmed
 * by one turn (the index's build): what both the throughput and the cost cases load (each warms the
 * JIT with warmUp before it measures).
 */
export async function openChats(
  ctx: BenchContext,
  label: string,
  env: Record<string, string> = {},
): Promise<ChatSetup> {
  const app = await startBenchApp(ctx.file(label), env);
  try {
    const { accountId, key } = await seedAccount(app);
    const h = { 'x-api-key': key };
    const { agentId, queries } = await knowledgeBaseAgent(ctx, app, h, accountId);
    const plan: ChatPlan = {
      url: app.url,
      headers: h,
      agentId,
      clientEnv: 'sandbox',
      conversations: await openConversations(app, h, agentId, queries),
      queries,
      seconds: ctx.quick ? 3 : 10,
    };
    return { app, plan, accountId };
  } catch (error) {
    await app.close();
    throw error;
  }
}

/** An agent of 500 synthetic topics merged to sandbox, with the runtime settings given; and the queries about them. */
export async function knowledgeBaseAgent(
  ctx: BenchContext,
  app: ChatSetup['app'],
  h: Record<string, string>,
  accountId: string,
  settings?: Record<string, unknown>,
): Promise<{ agentId: string; queries: string[] }> {
  const generated = syntheticKnowledgeBase(TOPICS + 50, 2000, 7);
  // topic names are unique per branch; the generator may repeat one
  const names = new Set<string>();
  const kb = {
    queries: generated.queries,
    topics: generated.topics.filter((t) => !names.has(t.name) && names.add(t.name)).slice(0, TOPICS),
  };
  const agent = await app.call<{ agentId: string }>('POST', `/v1/accounts/${accountId}/agents`, h, {
    name: 'kb',
    responseSettings: { greeting: 'Hello!' },
  });
  const branch = await app.call<{ branchId: string }>('POST', `/v1/agents/${agent.agentId}/branches`, h, {
    branchName: 'kb',
  });
  ctx.log(`debug chat: adding ${TOPICS} topics`);
  for (let i = 0; i < kb.topics.length; i += 16) {
    await Promise.all(
      kb.topics.slice(i, i + 16).map((t) =>
        app.call('POST', `/v1/agents/${agent.agentId}/branches/${branch.branchId}/knowledge-base/topics`, h, {
          name: t.name,
          content: t.content,
          exampleQueries: { queries: t.exampleQueries.slice(0, 100) },
        }),
      ),
    );
  }
  if (settings) await app.call('PUT', `/v1/agents/${agent.agentId}/branches/${branch.branchId}/settings`, h, settings);
  await app.call('POST', `/v1/agents/${agent.agentId}/branches/${branch.branchId}/merge`, h, {
    deploymentMessage: 'kb',
  });
  return { agentId: agent.agentId, queries: kb.queries };
}

/** 32 debug chats on the agent's sandbox, each answered once (the first turn builds the deployment's index). */
export async function openConversations(
  app: ChatSetup['app'],
  h: Record<string, string>,
  agentId: string,
  queries: string[],
): Promise<string[]> {
  let q = 0;
  const conversations = await Promise.all(
    Array.from({ length: CONVERSATIONS }, () =>
      app.call<{ conversationId: string }>('POST', `/v1/agents/${agentId}/debug-chat`, h, { clientEnv: 'sandbox' }),
    ),
  );
  await Promise.all(
    conversations.map((c) =>
      app.call('POST', `/v1/agents/${agentId}/debug-chat/${c.conversationId}`, h, {
        clientEnv: 'sandbox',
        message: queries[q++ % queries.length],
      }),
    ),
  );
  return conversations.map((c) => c.conversationId);
}

/**
 * Debug chat end to end over HTTP: an agent with 500 topics in sandbox, 32 conversations each
 * sending its next message as soon as the previous answer arrives. Every turn is a real turn:
 * retrieval, the answer, actions, one append to the conversation's stream at FULL durability.
 * Then the same load through the Chat API (contract §16) on the same app and agent: the same
 * engine and runtime behind another channel, so the two rates compare the channels alone.
 */
async function chatLoad(ctx: BenchContext): Promise<{ debug: ChatFigures; chatApi: ChatFigures }> {
  return ctx.shared('debug-chat', async () => {
    const { app, plan, accountId } = await openChats(ctx, 'debug-chat');
    try {
      const debug = await measure('debug-chat.turns', plan, ctx.file('debug-chat-plan.json'));
      const chatPath = `/v1/${accountId}/${plan.agentId}/chat`;
      let q = 0;
      const chatIds = (
        await Promise.all(
          Array.from({ length: CONVERSATIONS }, () =>
            app.call<{ conversation_id: string }>('POST', `${chatPath}/create`, plan.headers, {
              client_env: 'sandbox',
            }),
          ),
        )
      ).map((c) => c.conversation_id as string);
      await Promise.all(
        chatIds.map((id) =>
          app.call('POST', `${chatPath}/respond`, plan.headers, {
            conversation_id: id,
            message: plan.queries[q++ % plan.queries.length],
          }),
        ),
      );
      const chatApi = await measure(
        'chat-api.turns',
        { ...plan, conversations: chatIds, chatApi: { accountId } },
        ctx.file('chat-api-plan.json'),
      );
      return { debug, chatApi };
    } finally {
      await app.close();
    }
  });
}

/** Runs the load untimed until WARM_UP_TURNS turns are served (bounded by WARM_UP_MAX_S); returns the turns. */
export async function warmUp(plan: ChatPlan, planFile: string, turns = WARM_UP_TURNS): Promise<number> {
  const started = performance.now();
  let served = 0;
  while (served < turns && performance.now() - started < WARM_UP_MAX_S * 1000) {
    const r = await runDriver(planFile, { ...plan, seconds: 1 });
    if (r.failures > 0) throw new Error(`warm-up: ${r.failures} turns failed, first: ${r.firstFailure}`);
    served += r.turns;
  }
  return served;
}

export async function measure(name: string, plan: ChatPlan, planFile: string): Promise<ChatFigures> {
  await warmUp(plan, planFile);
  const { result: r, mainMs, othersMs } = await cpuDuring(() => profiled(name, () => runDriver(planFile, plan)));
  if (r.failures > 0) throw new Error(`${name}: ${r.failures} turns failed, first: ${r.firstFailure}`);
  const perTurn = (ms: number | null) => (ms === null ? null : (ms * 1000) / r.turns);
  return {
    turnsPerSecond: r.turns / r.elapsed,
    p50: r.p50,
    p99: r.p99,
    turns: r.turns,
    mainCpuUsPerTurn: perTurn(mainMs),
    otherCpuUsPerTurn: perTurn(othersMs),
  };
}

export function turnsCase(r: ChatFigures, what: string) {
  const cpu =
    r.mainCpuUsPerTurn === null
      ? ''
      : `; server CPU per turn: main thread ${r.mainCpuUsPerTurn.toFixed(0)} µs, other threads ${r.otherCpuUsPerTurn!.toFixed(0)} µs`;
  return {
    figure: r.turnsPerSecond,
    unit: 'turns/s',
    note: `${what}: ${CONVERSATIONS} conversations, agent with ${TOPICS} topics, over HTTP (client in its own process); ${r.turns} turns${cpu}`,
    details: { ...r },
  };
}

export const debugChatCases: BenchCase[] = [
  {
    name: 'debug-chat.turns.32-conversations',
    run: async (ctx) => turnsCase((await chatLoad(ctx)).debug, 'debug chat'),
  },
  {
    name: 'debug-chat.turn.p99',
    run: async (ctx) => {
      const r = (await chatLoad(ctx)).debug;
      return { figure: r.p99, unit: 'ms', note: `p50 ${r.p50.toFixed(1)} ms; same run as debug-chat.turns` };
    },
  },
  {
    name: 'chat-api.turns.32-conversations',
    run: async (ctx) => turnsCase((await chatLoad(ctx)).chatApi, 'Chat API, same app and agent as debug chat'),
  },
];
