import type { BenchCase } from '../lib/case';
import type { BenchContext } from '../lib/context';
import { startBenchApp, seedAccount, type BenchApp } from '../lib/http-app';
import { median } from '../lib/measure';

const CLIENTS = 16;
const TOPICS_PER_AGENT = 20;

/** One client's lifecycle of an agent, end to end over HTTP, as a user of the API would do it. */
async function buildOne(app: BenchApp, accountId: string, h: Record<string, string>, n: number): Promise<void> {
  const agent = await app.call<{ agentId: string }>('POST', `/v1/accounts/${accountId}/agents`, h, {
    name: `agent ${n}`,
    responseSettings: { greeting: 'Hello!' },
  });
  const branch = await app.call<{ branchId: string }>('POST', `/v1/agents/${agent.agentId}/branches`, h, {
    branchName: 'feature',
  });
  const base = `/v1/agents/${agent.agentId}/branches/${branch.branchId}`;
  await app.call('PATCH', `${base}/behavior`, h, { behavior: 'You are a helpful support agent.' });
  for (let t = 0; t < TOPICS_PER_AGENT; t++) {
    await app.call('POST', `${base}/knowledge-base/topics`, h, {
      name: `topic ${t}`,
      content: `Answer number ${t}: opening hours, refunds and delivery times for case ${t}.`,
      exampleQueries: { queries: [`question ${t}`, `how about ${t}`] },
    });
  }
  await app.call('POST', `${base}/merge`, h, { deploymentMessage: 'bench' });
  const active = await app.call<{ activeDeployments: { sandbox: { id: string } } }>(
    'GET',
    `/v1/agents/${agent.agentId}/deployments/active`,
    h,
  );
  const pre = await app.call<{ deployment: { id: string } }>(
    'POST',
    `/v1/agents/${agent.agentId}/deployments/${active.activeDeployments.sandbox.id}/promote`,
    h,
    {},
  );
  await app.call('POST', `/v1/agents/${agent.agentId}/deployments/${pre.deployment.id}/promote`, h, {});
}

async function agentsPerSecond(ctx: BenchContext): Promise<{ figure: number; runs: number[]; agents: number }> {
  const app = await startBenchApp(ctx.file('agents-build'));
  try {
    const { accountId, key } = await seedAccount(app);
    const h = { 'x-api-key': key };
    const seconds = ctx.quick ? 3 : 10;
    const runs: number[] = [];
    let total = 0;
    for (let run = 0; run < ctx.sizes.runs; run++) {
      let built = 0;
      const deadline = performance.now() + seconds * 1000;
      const started = performance.now();
      await Promise.all(
        Array.from({ length: CLIENTS }, async (_, client) => {
          while (performance.now() < deadline)
            await buildOne(app, accountId, h, run * 100_000 + client * 10_000 + built++);
        }),
      );
      runs.push(built / ((performance.now() - started) / 1000));
      total += built;
      ctx.log(`agents build run ${run + 1}: ${built} agents`);
    }
    return { figure: median(runs), runs, agents: total };
  } finally {
    await app.close();
  }
}

/** A merge where main already holds `topics` topics and the branch changes one of them. */
async function mergeLatency(ctx: BenchContext): Promise<{ p50: number; p99: number; samples: number[] }> {
  const app = await startBenchApp(ctx.file('agents-merge'));
  try {
    const { accountId, key } = await seedAccount(app);
    const h = { 'x-api-key': key };
    const topics = ctx.quick ? 500 : 2000;
    const agent = await app.call<{ agentId: string }>('POST', `/v1/accounts/${accountId}/agents`, h, {
      name: 'big',
      responseSettings: { greeting: 'Hi' },
    });
    const first = await app.call<{ branchId: string }>('POST', `/v1/agents/${agent.agentId}/branches`, h, {
      branchName: 'bulk',
    });
    const bulk = `/v1/agents/${agent.agentId}/branches/${first.branchId}/knowledge-base/topics`;
    ctx.log(`merge bench: adding ${topics} topics`);
    for (let i = 0; i < topics; i += CLIENTS) {
      await Promise.all(
        Array.from({ length: Math.min(CLIENTS, topics - i) }, (_, j) =>
          app.call('POST', bulk, h, {
            name: `topic ${i + j}`,
            content: `content of topic ${i + j}`,
            exampleQueries: { queries: [`q ${i + j}`] },
          }),
        ),
      );
    }
    await app.call('POST', `/v1/agents/${agent.agentId}/branches/${first.branchId}/merge`, h, {
      deploymentMessage: 'bulk',
    });
    const samples: number[] = [];
    const merges = ctx.quick ? 5 : 20;
    for (let m = 0; m < merges; m++) {
      const branch = await app.call<{ branchId: string }>('POST', `/v1/agents/${agent.agentId}/branches`, h, {
        branchName: `edit-${m}`,
      });
      const base = `/v1/agents/${agent.agentId}/branches/${branch.branchId}`;
      const list = await app.call<Array<{ id: string }>>('GET', `${base}/knowledge-base/topics`, h);
      await app.call('PATCH', `${base}/knowledge-base/topics/${list[m].id}`, h, { content: `edited ${m}` });
      const t = performance.now();
      await app.call('POST', `${base}/merge`, h, { deploymentMessage: `edit ${m}` });
      samples.push(performance.now() - t);
    }
    const sorted = [...samples].sort((a, b) => a - b);
    return {
      p50: median(samples),
      p99: sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * 0.99))],
      samples,
    };
  } finally {
    await app.close();
  }
}

export const agentsCases: BenchCase[] = [
  {
    name: 'agents.lifecycle.16-clients',
    run: async (ctx) => {
      const r = await agentsPerSecond(ctx);
      return {
        figure: r.figure,
        unit: 'agents/s',
        runs: r.runs,
        note: `create, branch, behavior, ${TOPICS_PER_AGENT} topics, merge, promote x2 over HTTP; ${CLIENTS} clients`,
        details: { agents: r.agents },
      };
    },
  },
  {
    name: 'agents.merge.2000-topics.p50',
    run: async (ctx) => {
      const r = await mergeLatency(ctx);
      return {
        figure: r.p50,
        unit: 'ms',
        note: `merge of a 1-topic edit onto main with ${ctx.quick ? 500 : 2000} topics, over HTTP incl. read-your-writes; p99 ${r.p99.toFixed(1)} ms`,
        details: { samplesMs: r.samples },
      };
    },
  },
];
