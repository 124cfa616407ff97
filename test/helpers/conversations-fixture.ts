import { AgentsClient, createAccount as createAgentsAccount, expectOk, type AgentsAccount } from './agents-fixture';
import { advanceClock, createAccount, operatorKey, platformNow, withKey, type KeySpec } from './keys-fixtures';
import { request, startTestApp, type JsonResponse, type TestApp } from './test-app';
import { patient } from '../support/patience';
import type { Json } from './json';

/**
 * Shared setup of the Conversations API and Handoff API e2e suites: one app on the manual test
 * clock (contract §1), one account with an all-permissions key for building agents, conversations
 * made through debug chat (contract §7), and small clients for the read APIs.
 */

export type Env = 'sandbox' | 'pre-release' | 'live';
type Version = 'v1' | 'v2' | 'v3';
export type Params = Record<string, string | number | boolean | Array<string | number>>;

export interface TopicSpec {
  name: string;
  content: string;
  queries: string[];
  actions?: string;
}

export interface ConversationsFixture {
  t: TestApp;
  /** `ws-<id>` */
  accountId: string;
  /** bare slug */
  accountSlug: string;
  /** all permissions, all agents: builds agents, drives debug chat, sets data access */
  api: AgentsClient;
  adminKey: string;
  close(): Promise<void>;
}

/** The app on the manual clock, with debug chats that do not time out while the clock is moved. */
export async function startConversationsFixture(
  name = 'Convo Co',
  env: Record<string, string> = {},
): Promise<ConversationsFixture> {
  const t = await startTestApp({ PARLEY_TEST_CLOCK: '1', DEBUG_CHAT_TIMEOUT_S: '86400', ...env });
  try {
    const account: AgentsAccount = await createAgentsAccount(t, name, [
      'conversations',
      'handoff',
      'external_events',
      'agents',
      'alerts',
      'keys',
    ]);
    return {
      t,
      accountId: account.accountId,
      accountSlug: account.accountSlug,
      api: new AgentsClient(t, account),
      adminKey: account.key,
      close: () => t.close(),
    };
  } catch (error) {
    await t.close();
    throw error;
  }
}

/** An agent with the given topics merged (sandbox) and, when asked, promoted to pre-release and live. */
export async function buildAgent(
  f: ConversationsFixture,
  name: string,
  greeting: string,
  topics: TopicSpec[],
  promote = false,
): Promise<string> {
  const agentId = (await f.api.createAgent(name, greeting)).agentId;
  await f.api.shipChange(agentId, `kb-${name.toLowerCase().replace(/[^a-z0-9]+/g, '-')}`, async (branchId) => {
    for (const topic of topics) await f.api.addTopic(agentId, branchId, topic);
  });
  if (promote) {
    const sandbox = (await f.api.active(agentId)).sandbox!;
    const pre = await f.api.promote(agentId, sandbox.id, 'pre-release');
    await f.api.promote(agentId, pre.id, 'live');
  }
  return agentId;
}

/** Debug chat: a new conversation; returns its id. */
export async function startChat(f: ConversationsFixture, agentId: string, env: Env = 'sandbox'): Promise<string> {
  const r = await f.api.post(`/v1/agents/${agentId}/debug-chat`, { clientEnv: env });
  expectOk(r, [200, 201]);
  return r.body.conversationId as string;
}

/** Debug chat: one user turn; returns the debug chat turn body. */
export async function say(
  f: ConversationsFixture,
  agentId: string,
  conversationId: string,
  message: string,
  env: Env = 'sandbox',
): Promise<Json> {
  const r = await f.api.post(`/v1/agents/${agentId}/debug-chat/${conversationId}`, { clientEnv: env, message });
  expectOk(r, 200);
  return r.body;
}

/** A conversation: greeting, then each message as a turn, moving the clock `gapS` seconds before each turn. */
export async function converse(
  f: ConversationsFixture,
  agentId: string,
  messages: string[],
  env: Env = 'sandbox',
  gapS = 0,
): Promise<{ id: string; replies: Json[] }> {
  const id = await startChat(f, agentId, env);
  const replies: Json[] = [];
  for (const message of messages) {
    if (gapS > 0) await advanceClock(f.t, gapS);
    replies.push(await say(f, agentId, id, message, env));
  }
  return { id, replies };
}

export { advanceClock, platformNow };

/** An operator-issued key of the fixture's account (or another account). */
export async function issueKey(f: ConversationsFixture, spec: KeySpec, accountId = f.accountId): Promise<string> {
  return (await operatorKey(f.t, accountId, spec)).key as string;
}

/** Another account with its own all-permissions key and agent: for cross-account checks. */
export async function foreignAccount(f: ConversationsFixture): Promise<{ accountId: string; key: string }> {
  const accountId = await createAccount(f.t, 'Foreign Co');
  const key = (await operatorKey(f.t, accountId)).key as string;
  return { accountId, key };
}

export async function setDataAccess(
  f: ConversationsFixture,
  agentId: string,
  body: { response_metrics: string[]; show_transcripts: boolean },
) {
  const r = await request(`${f.t.url}/v1/accounts/${f.accountId}/agents/${agentId}/data-access`, {
    method: 'PUT',
    body,
    headers: withKey(f.adminKey),
  });
  expectOk(r, 200);
}

function queryString(params: Params = {}): string {
  const qs = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    for (const v of Array.isArray(value) ? value : [value]) qs.append(key, String(v));
  }
  const s = qs.toString();
  return s ? `?${s}` : '';
}

export interface PathOptions {
  version?: Version;
  /** the account segment; the fixture's `ws-<id>` by default */
  account?: string;
}

/** Reads of the Conversations API for one project with one key. */
export class ConversationsReader {
  constructor(
    readonly f: ConversationsFixture,
    readonly key: string | null,
    readonly projectId: string,
  ) {}

  private headers(): Record<string, string> {
    return this.key === null ? {} : withKey(this.key);
  }

  base(opts: PathOptions = {}, project = this.projectId) {
    return `${this.f.t.url}/${opts.version ?? 'v3'}/${opts.account ?? this.f.accountId}/${project}`;
  }

  list(params: Params = {}, opts: PathOptions & { project?: string } = {}): Promise<JsonResponse> {
    return request(`${this.base(opts, opts.project)}/conversations${queryString(params)}`, { headers: this.headers() });
  }

  one(
    conversationId: string,
    params: Params = {},
    opts: PathOptions & { project?: string } = {},
  ): Promise<JsonResponse> {
    return request(
      `${this.base(opts, opts.project)}/conversations/${encodeURIComponent(conversationId)}${queryString(params)}`,
      { headers: this.headers() },
    );
  }

  events(conversationId: string, opts: PathOptions & { project?: string } = {}): Promise<JsonResponse> {
    return request(
      `${this.base({ ...opts, version: 'v3' }, opts.project)}/conversations/${encodeURIComponent(conversationId)}/events`,
      { headers: this.headers() },
    );
  }

  handoff(params: Params, opts: { account?: string; project?: string } = {}): Promise<JsonResponse> {
    return request(
      `${this.base({ version: 'v1', account: opts.account }, opts.project)}/handoff_state${queryString(params)}`,
      { headers: this.headers() },
    );
  }

  /** The ids of a list call, asserting 200. */
  async ids(params: Params = {}, opts: PathOptions & { project?: string } = {}): Promise<string[]> {
    const r = await this.list(params, opts);
    expectOk(r, 200);
    return (r.body.conversations as Array<{ id: string }>).map((c) => c.id);
  }
}

/**
 * Retries `check` (which throws or rejects while its expectation does not hold) until it passes or
 * `timeoutMs` has gone by; the read models are eventually consistent. Returns what `check` returned.
 */
export async function eventually<T>(check: () => Promise<T> | T, timeoutMs = 3000, intervalMs = 40): Promise<T> {
  const deadline = Date.now() + patient(timeoutMs);
  for (;;) {
    try {
      return await check();
    } catch (error) {
      if (Date.now() >= deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, intervalMs));
    }
  }
}

export const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

export const isoPlus = (iso: string, seconds: number) => new Date(Date.parse(iso) + seconds * 1000).toISOString();
