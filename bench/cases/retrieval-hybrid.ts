import { EmbeddingsClient } from '../../src/platform/embeddings/embeddings-client';
import { EmbeddingsServer } from '../../test/support/embeddings-server';
import type { BenchCase } from '../lib/case';
import type { BenchContext } from '../lib/context';
import { seedAccount, startBenchApp, type BenchApp } from '../lib/http-app';
import { median } from '../lib/measure';
import { knowledgeBaseAgent } from './debug-chat';

/** The dimension of the stub's vectors: OpenAI's text-embedding-3-small's. */
const DIMENSION = 1536;

interface Chat {
  agentId: string;
  conversationId: string;
}

/** One debug-chat turn, timed from the client; its metadata's retrieval. */
async function turn(app: BenchApp, h: Record<string, string>, chat: Chat, message: string) {
  const t = performance.now();
  const body = await app.call<{ metadata: { retrieval?: { mode: string; fallback_reason?: string } } }>(
    'POST',
    `/v1/agents/${chat.agentId}/debug-chat/${chat.conversationId}`,
    h,
    { clientEnv: 'sandbox', message },
  );
  return { ms: performance.now() - t, retrieval: body.metadata.retrieval };
}

async function openChat(app: BenchApp, h: Record<string, string>, agentId: string): Promise<Chat> {
  const chat = await app.call<{ conversationId: string }>('POST', `/v1/agents/${agentId}/debug-chat`, h, {
    clientEnv: 'sandbox',
  });
  return { agentId, conversationId: chat.conversationId };
}

/**
 * What hybrid retrieval adds to a turn beyond the embeddings endpoint's own time (issue 54): two
 * agents with the same 500 synthetic topics on one server, one lexical, one hybrid against a local
 * embeddings server (test/support/embeddings-server.ts: deterministic 1536-dimension vectors written
 * as full floats, like a hosted model's body, answered at once). Turns alternate between the two
 * agents' debug chats with the same questions, timed from the client. The endpoint's time is what
 * a call to it takes from this process: the runtime's own client (platform/embeddings) embedding
 * the same question, timed after each pair of turns. A run's figure is median(hybrid turn) −
 * median(lexical turn) − median(endpoint time): the resolution of the endpoint, the vector's
 * checks, the similarity to every topic and the fusion. The case's figure is the median of the
 * runs'; the note also gives the stub's own time (between reading a request and writing its
 * answer), so the figure with the whole HTTP exchange counted as Parley's is at hand too.
 */
async function hybridAddedLatency(ctx: BenchContext) {
  const stub = await EmbeddingsServer.start();
  stub.behaviour = { kind: 'answer', dimension: DIMENSION, precise: true };
  const app = await startBenchApp(ctx.file('hybrid'));
  try {
    const { accountId, key } = await seedAccount(app);
    const h = { 'x-api-key': key };
    await app.call(
      'POST',
      '/admin/v1/embedding-endpoints',
      { 'x-operator-token': app.operatorToken },
      {
        name: 'stub',
        base_url: stub.url,
        model: 'stub-embed',
      },
    );
    const lexical = await knowledgeBaseAgent(ctx, app, h, accountId);
    const hybrid = await knowledgeBaseAgent(ctx, app, h, accountId, {
      retrieval: { mode: 'hybrid', endpoint: 'stub' },
    });
    const queries = lexical.queries;
    const chats = { lexical: await openChat(app, h, lexical.agentId), hybrid: await openChat(app, h, hybrid.agentId) };
    // the deployment's topics are embedded behind the log: wait (bounded) until a turn is hybrid
    const deadline = Date.now() + 120_000;
    for (;;) {
      const r = await turn(app, h, chats.hybrid, queries[0]);
      if (r.retrieval?.mode === 'hybrid') break;
      if (Date.now() > deadline)
        throw new Error(`the hybrid agent's vectors were not stored: ${JSON.stringify(r.retrieval)}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    ctx.log(`hybrid retrieval: vectors stored (${stub.requests.length} requests to the stub)`);
    const warmUp = ctx.quick ? 300 : 1000;
    for (let i = 0; i < warmUp; i++) {
      await turn(app, h, chats.lexical, queries[i % queries.length]);
      await turn(app, h, chats.hybrid, queries[i % queries.length]);
    }
    const direct = new EmbeddingsClient({ baseUrl: stub.url, apiKey: null, model: 'stub-embed', timeoutMs: 5000 });
    const perRun = ctx.quick ? 300 : 1000;
    const added: number[] = [];
    const figures: Array<{ hybrid: number; lexical: number; endpoint: number; server: number }> = [];
    for (let run = 0; run < ctx.sizes.runs; run++) {
      const hybridMs: number[] = [];
      const lexicalMs: number[] = [];
      const endpointMs: number[] = [];
      const serverMs: number[] = [];
      for (let i = 0; i < perRun; i++) {
        const q = queries[(run * perRun + i) % queries.length];
        // alternate which goes first, so neither always follows the other
        const order = i % 2 === 0 ? (['lexical', 'hybrid'] as const) : (['hybrid', 'lexical'] as const);
        for (const side of order) {
          const served = stub.serverMs.length;
          const r = await turn(app, h, chats[side], q);
          if (side === 'lexical') lexicalMs.push(r.ms);
          else {
            if (r.retrieval?.mode !== 'hybrid')
              throw new Error(`a hybrid turn fell back: ${JSON.stringify(r.retrieval)}`);
            hybridMs.push(r.ms);
            serverMs.push(stub.serverMs.slice(served).reduce((a, b) => a + b, 0));
          }
        }
        const t = performance.now();
        await direct.embed([q]);
        endpointMs.push(performance.now() - t);
      }
      const f = {
        hybrid: median(hybridMs),
        lexical: median(lexicalMs),
        endpoint: median(endpointMs),
        server: median(serverMs),
      };
      figures.push(f);
      added.push(f.hybrid - f.lexical - f.endpoint);
      ctx.log(
        `hybrid retrieval run ${run + 1}: hybrid ${f.hybrid.toFixed(3)} ms, lexical ${f.lexical.toFixed(3)} ms, endpoint ${f.endpoint.toFixed(3)} ms (stub ${f.server.toFixed(3)}): added ${added[run].toFixed(3)} ms`,
      );
    }
    return { added, figures, perRun };
  } finally {
    await app.close();
    await stub.stop();
  }
}

export const retrievalHybridCases: BenchCase[] = [
  {
    name: 'runtime.retrieval.hybrid',
    async run(ctx) {
      const r = await hybridAddedLatency(ctx);
      const at = (key: 'hybrid' | 'lexical' | 'endpoint' | 'server') => median(r.figures.map((f) => f[key]));
      return {
        figure: median(r.added),
        unit: 'ms',
        runs: r.added,
        note: `a debug-chat turn, hybrid − lexical − endpoint time (medians of ${r.perRun} alternating turns each; 500 topics, ${DIMENSION}-dimension vectors from a local embeddings server): hybrid ${at('hybrid').toFixed(3)} ms, lexical ${at('lexical').toFixed(3)} ms, endpoint call ${at('endpoint').toFixed(3)} ms (the stub's own time ${at('server').toFixed(3)} ms: counting the rest of the call as Parley's, ${(at('hybrid') - at('lexical') - at('server')).toFixed(3)} ms)`,
        details: { runs: r.figures, turnsPerRun: r.perRun, dimension: DIMENSION },
      };
    },
  },
];
