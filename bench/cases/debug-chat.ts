import { syntheticKnowledgeBase } from '../../src/runtime/retrieval/synthetic';
import type { BenchCase } from '../lib/case';
import type { BenchContext } from '../lib/context';
import { seedAccount, startBenchApp } from '../lib/http-app';
import { median } from '../lib/measure';

const CONVERSATIONS = 32;
const TOPICS = 500;

interface ChatFigures {
  turnsPerSecond: number;
  p50: number;
  p99: number;
  turns: number;
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
      const kb = { queries: generated.queries, topics: generated.topics.filter((t) => !names.has(t.name) && names.add(t.name)).slice(0, TOPICS) };
      const agent = await app.call('POST', `/v1/accounts/${accountId}/agents`, h, { name: 'kb', responseSettings: { greeting: 'Hello!' } });
      const branch = await app.call('POST', `/v1/agents/${agent.agentId}/branches`, h, { branchName: 'kb' });
      ctx.log(`debug chat: adding ${TOPICS} topics`);
      for (let i = 0; i < kb.topics.length; i += 16) {
        await Promise.all(
          kb.topics.slice(i, i + 16).map((t) =>
            app.call('POST', `/v1/agents/${agent.agentId}/branches/${branch.branchId}/knowledge-base/topics`, h, { name: t.name, content: t.content, exampleQueries: { queries: t.exampleQueries.slice(0, 100) } }),
          ),
        );
      }
      await app.call('POST', `/v1/agents/${agent.agentId}/branches/${branch.branchId}/merge`, h, { deploymentMessage: 'kb' });
      const seconds = ctx.quick ? 3 : 10;
      const latencies: number[] = [];
      let q = 0;
      const conversations = await Promise.all(Array.from({ length: CONVERSATIONS }, () => app.call('POST', `/v1/agents/${agent.agentId}/debug-chat`, h, { clientEnv: 'sandbox' })));
      // warm-up: index build, JIT
      await Promise.all(conversations.map((c) => app.call('POST', `/v1/agents/${agent.agentId}/debug-chat/${c.conversationId}`, h, { clientEnv: 'sandbox', message: kb.queries[q++ % kb.queries.length] })));
      const started = performance.now();
      const deadline = started + seconds * 1000;
      await Promise.all(
        conversations.map(async (c) => {
          while (performance.now() < deadline) {
            const t = performance.now();
            await app.call('POST', `/v1/agents/${agent.agentId}/debug-chat/${c.conversationId}`, h, { clientEnv: 'sandbox', message: kb.queries[q++ % kb.queries.length] });
            latencies.push(performance.now() - t);
          }
        }),
      );
      const elapsed = (performance.now() - started) / 1000;
      const sorted = [...latencies].sort((a, b) => a - b);
      return { turnsPerSecond: latencies.length / elapsed, p50: median(latencies), p99: sorted[Math.floor(sorted.length * 0.99)], turns: latencies.length };
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
      return { figure: r.turnsPerSecond, unit: 'turns/s', note: `${CONVERSATIONS} conversations, agent with ${TOPICS} topics, over HTTP (client in the same process); ${r.turns} turns`, details: { ...r } };
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
