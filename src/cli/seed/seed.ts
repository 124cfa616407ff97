import { randomBytes, randomUUID } from 'node:crypto';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import pino from 'pino';
import { DeploymentContent, type ServedContent } from '../../agents/deployment-content';
import { createApp } from '../../app.factory';
import { conversationDecider } from '../../conversations/conversation.decider';
import { conversationStream, type ConversationEvent } from '../../conversations/conversation.events';
import { foldFacts } from '../../analysis/conversation-facts';
import { embeddedAnalysis } from '../../analysis/embedded-analyser';
import { EVENT_STORE, type EventStore, type NewEvent } from '../../event-store/event-store.port';
import { Clock } from '../../platform/clock/clock';
import { toNewEvents } from '../../commands/command-handler';
import { loadConfig } from '../../platform/config/config';
import { ReadModels } from '../../read-models/read-models.service';
import { AgentRuntime } from '../../runtime/agent-runtime';
import { simulateConversation, type SimulationTarget, type TimedCommand } from './conversation-simulator';
import { DEMO_AGENTS, DEMO_TOPICS } from './demo-knowledge';
import { Prng } from './prng';

export interface SeedOptions {
  dataDir: string;
  conversations: number;
  /** agents of the demo account (at most the demo's three) */
  agents: number;
  /** conversations start over this many past days */
  days: number;
  /** share of conversations on the live environment (the rest split between pre-release and sandbox); default 0.8 */
  liveShare?: number;
  seed: number;
  /** conversations simulated at once: appends of concurrent ones share commits */
  concurrency: number;
  log: (line: string) => void;
  /** configuration of the seeding app over this process's environment (e.g. READ_MODEL_DB, DATABASE_URL) */
  env?: Record<string, string>;
}

export interface SeedResult {
  accountId: string;
  keys: Array<{ name: string; key: string }>;
  agents: Array<{ agentId: string; name: string }>;
  conversations: number;
  commands: number;
  seconds: number;
  projectionSeconds: number;
}

const ENVIRONMENTS = ['live', 'pre-release', 'sandbox'] as const;

function environmentWeights(liveShare = 0.8): Record<(typeof ENVIRONMENTS)[number], number> {
  const live = Math.round(Math.min(1, Math.max(0, liveShare)) * 1000);
  return { live, 'pre-release': (1000 - live) / 2, sandbox: (1000 - live) / 2 };
}
const ALL_PERMISSIONS = [
  'agents',
  'keys',
  'conversations',
  'handoff',
  'external_events',
  'alerts',
  'outbound_calling',
  'sms',
  'desk',
  'chat',
];

/** A clock fixed at one instant: each command is recorded at its simulated time. */
class FixedClock extends Clock {
  constructor(private readonly ms: number) {
    super();
  }
  now(): Date {
    return new Date(this.ms);
  }
  onAdvance(): () => void {
    return () => undefined;
  }
}

/**
 * Demo data through the real paths: the account, keys and agents over the HTTP API of an app
 * started on loopback in `dataDir`; conversations through the runtime and the conversation decider,
 * many at a time; then waits until the read models have caught up, so the data dir serves at once.
 */
export async function seed(options: SeedOptions): Promise<SeedResult> {
  const began = performance.now();
  const operatorToken = process.env.OPERATOR_TOKEN || `seed-${randomBytes(16).toString('hex')}`;
  const config = loadConfig({
    ...process.env,
    ...options.env,
    DATA_DIR: options.dataDir,
    OPERATOR_TOKEN: operatorToken,
    RATE_LIMIT_PER_KEY: '0',
    LOG_LEVEL: 'warn',
  });
  const app = await createApp(config, pino({ level: 'warn' }));
  await app.listen({ port: 0, host: '127.0.0.1' });
  try {
    const api = client(app, operatorToken);
    const { accountId, keys, agents, targets } = await setUp(api, app, options);
    options.log(
      `account ${accountId}: ${agents.length} agents with ${DEMO_TOPICS.length} topics each, deployed to sandbox, pre-release and live`,
    );
    const commands = await runConversations(app, targets, options);
    const seconds = (performance.now() - began) / 1000;
    const projectionStart = performance.now();
    await caughtUp(app.get(ReadModels), options.log);
    return {
      accountId,
      keys,
      agents,
      conversations: options.conversations,
      commands,
      seconds,
      projectionSeconds: (performance.now() - projectionStart) / 1000,
    };
  } finally {
    await app.close();
  }
}

/** Calls the API and answers the JSON body; the caller names the fields it reads. */
type Api = <T = unknown>(method: string, route: string, body?: unknown, key?: string) => Promise<T>;

function client(app: NestFastifyApplication, operatorToken: string): Api {
  const { port } = app.getHttpServer().address() as { port: number };
  return async <T>(method: string, route: string, body?: unknown, key?: string): Promise<T> => {
    const response = await fetch(`http://127.0.0.1:${port}${route}`, {
      method,
      headers: {
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...(key ? { 'x-api-key': key } : { 'x-operator-token': operatorToken }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    if (!response.ok) throw new Error(`${method} ${route}: ${response.status} ${text}`);
    return (text ? JSON.parse(text) : null) as T;
  };
}

async function setUp(api: Api, app: NestFastifyApplication, options: SeedOptions) {
  const account = await api<{ accountId: string }>('POST', '/admin/v1/accounts', { name: 'Acme (demo)', region: 'us' });
  const accountId: string = account.accountId;
  const expiresAt = new Date(Date.now() + 365 * 24 * 3600 * 1000).toISOString();
  const admin = await api<{ key: string; name: string }>('POST', `/admin/v1/accounts/${accountId}/api-keys`, {
    name: 'demo: every permission',
    agents: 'all',
    permissions: ALL_PERMISSIONS,
    expiresAt,
  });
  const reader = await api<{ key: string; name: string }>('POST', `/admin/v1/accounts/${accountId}/api-keys`, {
    name: 'demo: conversations reader',
    agents: 'all',
    permissions: ['conversations', 'handoff'],
    expiresAt,
  });
  const key: string = admin.key;
  const agents: Array<{ agentId: string; name: string }> = [];
  const targets: Array<
    Omit<SimulationTarget, 'environment' | 'deploymentId'> & { deployments: Record<string, string> }
  > = [];
  const deployments = app.get(DeploymentContent);
  for (const [index, demo] of DEMO_AGENTS.slice(
    0,
    Math.max(1, Math.min(options.agents, DEMO_AGENTS.length)),
  ).entries()) {
    const agent = await api<{ agentId: string }>(
      'POST',
      `/v1/accounts/${accountId}/agents`,
      { name: demo.name, responseSettings: { greeting: demo.greeting } },
      key,
    );
    const branch = await api<{ branchId: string }>(
      'POST',
      `/v1/agents/${agent.agentId}/branches`,
      { branchName: 'launch' },
      key,
    );
    for (const topic of DEMO_TOPICS) {
      await api(
        'POST',
        `/v1/agents/${agent.agentId}/branches/${branch.branchId}/knowledge-base/topics`,
        {
          name: topic.name,
          content: topic.content,
          exampleQueries: { queries: topic.queries },
          actions: topic.actions ?? '',
        },
        key,
      );
    }
    await api(
      'POST',
      `/v1/agents/${agent.agentId}/branches/${branch.branchId}/merge`,
      { deploymentMessage: 'launch' },
      key,
    );
    const bare = String(agent.agentId).replace(/^PROJECT-/, '');
    const deploymentId = await deployments.activeDeploymentId(bare, 'sandbox');
    await api(
      'POST',
      `/v1/agents/${agent.agentId}/deployments/${deploymentId}/promote`,
      { targetEnvironment: 'pre-release' },
      key,
    );
    await api(
      'POST',
      `/v1/agents/${agent.agentId}/deployments/${deploymentId}/promote`,
      { targetEnvironment: 'live' },
      key,
    );
    await api(
      'PUT',
      `/v1/accounts/${accountId}/agents/${agent.agentId}/data-access`,
      { response_metrics: ['CALL_COMPLETED', 'HANDOFF_REASON', 'HANDOFF_TO', 'complaint'], show_transcripts: true },
      key,
    );
    const content: ServedContent = await deployments.ofDeployment(
      bare,
      (await deployments.activeDeploymentId(bare, 'live'))!,
    );
    const byEnvironment: Record<string, string> = {};
    for (const environment of ENVIRONMENTS)
      byEnvironment[environment] = (await deployments.activeDeploymentId(bare, environment as never))!;
    agents.push({ agentId: agent.agentId, name: demo.name });
    targets.push({ content, agentId: bare, agentNumber: `+1555010${index}`, deployments: byEnvironment });
  }
  return {
    accountId,
    keys: [
      { name: admin.name, key },
      { name: reader.name, key: reader.key },
    ],
    agents,
    targets,
  };
}

async function runConversations(
  app: NestFastifyApplication,
  targets: Array<Omit<SimulationTarget, 'environment' | 'deploymentId'> & { deployments: Record<string, string> }>,
  options: SeedOptions,
): Promise<number> {
  const store = app.get<EventStore>(EVENT_STORE);
  const runtime = new AgentRuntime(null);
  const nowMs = Date.now();
  const spanMs = options.days * 24 * 3600 * 1000;
  const weights = environmentWeights(options.liveShare);
  let next = 0;
  let done = 0;
  let commands = 0;
  const started = performance.now();
  const progress = setInterval(() => {
    const rate = done / ((performance.now() - started) / 1000);
    options.log(
      `${done.toLocaleString('en-US')} / ${options.conversations.toLocaleString('en-US')} conversations (${Math.round(rate).toLocaleString('en-US')}/s)`,
    );
  }, 5000);
  const worker = async () => {
    while (next < options.conversations) {
      const n = next++;
      // one generator per conversation: the data does not depend on how the work interleaves
      const prng = new Prng(options.seed * 2_654_435_761 + n);
      const base = prng.pick(targets);
      const environment = prng.weighted(weights);
      // Conversations arrive in time order, as they would in production (a few minutes of jitter);
      // the newest few are still going on.
      const slot = nowMs - spanMs + (spanMs * (n + 0.5)) / options.conversations;
      const startMs = Math.min(
        nowMs - 1000,
        n >= options.conversations - Math.ceil(options.conversations * 0.002)
          ? nowMs - prng.between(0, 120_000)
          : slot + prng.between(-300_000, 300_000),
      );
      const target: SimulationTarget = { ...base, environment, deploymentId: base.deployments[environment] };
      const simulated = await simulateConversation(prng, runtime, target, Math.round(startMs), nowMs);
      await store.append(conversationStream(simulated.conversationId), decideAll(simulated.commands), 'no_stream');
      commands += simulated.commands.length;
      done++;
    }
  };
  try {
    await Promise.all(Array.from({ length: options.concurrency }, worker));
  } finally {
    clearInterval(progress);
  }
  return commands;
}

/**
 * The conversation's commands decided in order by its decider, each event stamped at its
 * command's simulated time: the events the conversation engine would append one command at a
 * time, appended here in one go (a conversation that ended long ago has no concurrent writers).
 */
function decideAll(commands: TimedCommand[]): NewEvent[] {
  let state = conversationDecider.initialState();
  const events: NewEvent[] = [];
  const decidedAll: ConversationEvent[] = [];
  let lastAt = 0;
  for (const { at, command } of commands) {
    const decided = conversationDecider.decide(command, state);
    events.push(...toNewEvents(decided, { actor: 'system:seed', correlationId: randomUUID() }, new FixedClock(at)));
    state = decided.reduce(conversationDecider.evolve, state);
    decidedAll.push(...decided);
    lastAt = at;
  }
  // An ended conversation is analysed as the analysis process manager would, in the same append
  // (the seed asks no model: the embedded analyser), so the manager finds it analysed already.
  if (state.ended !== null && !state.analysed) {
    const analysis = embeddedAnalysis(foldFacts(decidedAll), []);
    const analysed = conversationDecider.decide({ type: 'RecordAnalysis', analysis }, state);
    events.push(
      ...toNewEvents(analysed, { actor: 'system:seed', correlationId: randomUUID() }, new FixedClock(lastAt)),
    );
  }
  return events;
}

async function caughtUp(readModels: ReadModels, log: (line: string) => void): Promise<void> {
  let lastLog = 0;
  for (;;) {
    const statuses = await readModels.status();
    const behind = statuses.filter((s) => s.state !== 'serving' || (s.lagEvents ?? 0) > 0);
    if (behind.length === 0) return;
    if (performance.now() - lastLog > 5000) {
      log(`read models catching up: ${behind.map((s) => `${s.name} ${s.lagEvents ?? '?'} events behind`).join(', ')}`);
      lastLog = performance.now();
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}
