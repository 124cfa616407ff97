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

const CONVERSATIONS = 32;
const TOPICS = 500;

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
function runDriver(planFile: string, plan: ChatPlan): Promise<ChatDriverResult> {
  fs.writeFileSync(planFile, JSON.stringify(plan));
  const driver = path.join(__dirname, '../lib/chat-driver.js');
  return new Promise((resolve, reject) => {
    execFile(process.execPath, [driver, planFile], { maxBuffer: 1 << 20 }, (error, stdout, stderr) => {
      if (error) return reject(new Error(`chat driver failed: ${stderr || error.message}`));
      resolve(JSON.parse(stdout) as ChatDriverResult);
    });
  });
}

/**
 * Debug chat end to end over HTTP: an agent with 500 topics in sandbox, 32 conversations each
 * sending its next message as soon as the previous answer arrives. Every turn is a real turn:
 * retrieval, the answer, actions, one append to the conversation's stream at FULL durability.
 */
async function chatLoad(ctx: BenchContext): Promise<ChatFigures> {
  return ctx.shared('debug-chat', async () => {
    const app = await startBenchApp(ctx.file('debug-chat'));
    try {
      const { accountId, key } = await seedAccount(app);
      const h = { 'x-api-key': key };
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
      await app.call('POST', `/v1/agents/${agent.agentId}/branches/${branch.branchId}/merge`, h, {
        deploymentMessage: 'kb',
      });
      const seconds = ctx.quick ? 3 : 10;
      let q = 0;
      const conversations = await Promise.all(
        Array.from({ length: CONVERSATIONS }, () =>
          app.call<{ conversationId: string }>('POST', `/v1/agents/${agent.agentId}/debug-chat`, h, {
            clientEnv: 'sandbox',
          }),
        ),
      );
      // warm-up: index build, JIT
      await Promise.all(
        conversations.map((c) =>
          app.call('POST', `/v1/agents/${agent.agentId}/debug-chat/${c.conversationId}`, h, {
            clientEnv: 'sandbox',
            message: kb.queries[q++ % kb.queries.length],
          }),
        ),
      );
      const plan: ChatPlan = {
        url: app.url,
        headers: h,
        agentId: agent.agentId,
        clientEnv: 'sandbox',
        conversations: conversations.map((c) => c.conversationId),
        queries: kb.queries,
        seconds,
      };
      const {
        result: r,
        mainMs,
        othersMs,
      } = await cpuDuring(() => profiled('debug-chat.turns', () => runDriver(ctx.file('debug-chat-plan.json'), plan)));
      if (r.failures > 0) throw new Error(`${r.failures} turns failed, first: ${r.firstFailure}`);
      const perTurn = (ms: number | null) => (ms === null ? null : (ms * 1000) / r.turns);
      return {
        turnsPerSecond: r.turns / r.elapsed,
        p50: r.p50,
        p99: r.p99,
        turns: r.turns,
        mainCpuUsPerTurn: perTurn(mainMs),
        otherCpuUsPerTurn: perTurn(othersMs),
      };
    } finally {
      await app.close();
    }
  });
}

export const debugChatCases: BenchCase[] = [
  {
    name: 'debug-chat.turns.32-conversations',
    run: async (ctx) => {
      const r = await chatLoad(ctx);
      const cpu =
        r.mainCpuUsPerTurn === null
          ? ''
          : `; server CPU per turn: main thread ${r.mainCpuUsPerTurn.toFixed(0)} µs, other threads ${r.otherCpuUsPerTurn!.toFixed(0)} µs`;
      return {
        figure: r.turnsPerSecond,
        unit: 'turns/s',
        note: `${CONVERSATIONS} conversations, agent with ${TOPICS} topics, over HTTP (client in its own process); ${r.turns} turns${cpu}`,
        details: { ...r },
      };
    },
  },
  {
    name: 'debug-chat.turn.p99',
    run: async (ctx) => {
      const r = await chatLoad(ctx);
      return { figure: r.p99, unit: 'ms', note: `p50 ${r.p50.toFixed(1)} ms; same run as debug-chat.turns` };
    },
  },
];
