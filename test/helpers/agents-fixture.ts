import { request, startTestApp, type JsonResponse, type TestApp } from './test-app';
import type { Json } from './json';

/** An account (operator API) with one key holding `agents` and `keys` on all agents. */
export interface AgentsAccount {
  /** prefixed form, `ws-<id>` */
  accountId: string;
  /** bare slug */
  accountSlug: string;
  key: string;
  keyId: string;
}

export interface Topic {
  id: string;
  name: string;
  content: string;
  actions: string;
  exampleQueries: { queries: string[] };
  isActive: boolean;
}

export const oneYearAhead = () => new Date(Date.now() + 365 * 24 * 3600 * 1000).toISOString();

export async function createAccount(
  t: TestApp,
  name = 'Acme',
  permissions: string[] = ['agents', 'keys'],
): Promise<AgentsAccount> {
  const op = { 'x-operator-token': t.operatorToken };
  const account = await request(`${t.url}/admin/v1/accounts`, { body: { name, region: 'us' }, headers: op });
  if (account.status !== 201)
    throw new Error(`account creation failed: ${account.status} ${JSON.stringify(account.body)}`);
  const accountId: string = account.body.accountId;
  const key = await request(`${t.url}/admin/v1/accounts/${accountId}/api-keys`, {
    body: { name: `${name} key`, agents: 'all', permissions, expiresAt: oneYearAhead() },
    headers: op,
  });
  if (key.status !== 201) throw new Error(`key creation failed: ${key.status} ${JSON.stringify(key.body)}`);
  return { accountId, accountSlug: accountId.replace(/^ws-/, ''), key: key.body.key, keyId: key.body.id };
}

/** Calls the Agents API of one account with its key. */
export class AgentsClient {
  constructor(
    readonly t: TestApp,
    readonly account: AgentsAccount,
  ) {}

  get url() {
    return this.t.url;
  }

  call<T = Json>(
    method: string,
    path: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<JsonResponse<T>> {
    return request<T>(`${this.t.url}${path}`, { method, body, headers: { 'x-api-key': this.account.key, ...headers } });
  }

  get<T = Json>(path: string) {
    return this.call<T>('GET', path);
  }
  post<T = Json>(path: string, body?: unknown) {
    return this.call<T>('POST', path, body);
  }
  patch<T = Json>(path: string, body?: unknown) {
    return this.call<T>('PATCH', path, body);
  }
  delete<T = Json>(path: string) {
    return this.call<T>('DELETE', path);
  }

  /** Creates an agent and returns its body (asserting 200). */
  async createAgent(name = 'Support bot', greeting = 'Hello, how can I help?') {
    const r = await this.post(`/v1/accounts/${this.account.accountId}/agents`, {
      name,
      responseSettings: { greeting },
    });
    expectOk(r, 200);
    return r.body as {
      accountId: string;
      agentId: string;
      agentName: string;
      createdAt: string;
      updatedAt: string;
      branchCount: number;
    };
  }

  async createBranch(agentId: string, branchName: string) {
    const r = await this.post(`/v1/agents/${agentId}/branches`, { branchName });
    expectOk(r, [200, 201]);
    return r.body as { branchId: string; branchName: string; sequenceId: string; status: string; createdAt: string };
  }

  async setBehavior(agentId: string, branchId: string, behavior: string) {
    const r = await this.patch(`/v1/agents/${agentId}/branches/${branchId}/behavior`, { behavior });
    expectOk(r, [200, 204]);
    return r;
  }

  async behavior(agentId: string, branchId: string): Promise<string> {
    const r = await this.get(`/v1/agents/${agentId}/branches/${branchId}/behavior`);
    expectOk(r, 200);
    return r.body.behavior;
  }

  async addTopic(
    agentId: string,
    branchId: string,
    topic: { name: string; content?: string; queries?: string[]; actions?: string; isActive?: boolean },
  ): Promise<Topic> {
    const body: Record<string, unknown> = {
      name: topic.name,
      content: topic.content ?? `${topic.name} content`,
      exampleQueries: { queries: topic.queries ?? [`about ${topic.name}`] },
    };
    if (topic.actions !== undefined) body.actions = topic.actions;
    if (topic.isActive !== undefined) body.isActive = topic.isActive;
    const r = await this.post(`/v1/agents/${agentId}/branches/${branchId}/knowledge-base/topics`, body);
    expectOk(r, 201);
    return r.body;
  }

  async editTopic(agentId: string, branchId: string, topicId: string, changes: Record<string, unknown>) {
    const r = await this.patch(`/v1/agents/${agentId}/branches/${branchId}/knowledge-base/topics/${topicId}`, changes);
    expectOk(r, 204);
  }

  async removeTopic(agentId: string, branchId: string, topicId: string) {
    const r = await this.delete(`/v1/agents/${agentId}/branches/${branchId}/knowledge-base/topics/${topicId}`);
    expectOk(r, 204);
  }

  async topics(agentId: string, branchId: string): Promise<Topic[]> {
    const r = await this.get(`/v1/agents/${agentId}/branches/${branchId}/knowledge-base/topics`);
    expectOk(r, 200);
    return r.body;
  }

  async topicByName(agentId: string, branchId: string, name: string): Promise<Topic | undefined> {
    return (await this.topics(agentId, branchId)).find((t) => t.name === name);
  }

  async merge(agentId: string, branchId: string, body: Record<string, unknown> = { deploymentMessage: 'merge' }) {
    const r = await this.post(`/v1/agents/${agentId}/branches/${branchId}/merge`, body);
    expectOk(r, 200);
    return r.body as { sequence: string; message: string; testRunIds: string[] };
  }

  async active(agentId: string) {
    const r = await this.get(`/v1/agents/${agentId}/deployments/active`);
    expectOk(r, 200);
    return r.body.activeDeployments as Record<'sandbox' | 'pre-release' | 'live', Deployment | null>;
  }

  async deployments(agentId: string, environment?: string): Promise<Deployment[]> {
    const r = await this.get(`/v1/agents/${agentId}/deployments${environment ? `?environment=${environment}` : ''}`);
    expectOk(r, 200);
    return r.body.deployments;
  }

  async promote(agentId: string, deploymentId: string, targetEnvironment?: string): Promise<Deployment> {
    const r = await this.post(
      `/v1/agents/${agentId}/deployments/${deploymentId}/promote`,
      targetEnvironment ? { targetEnvironment } : {},
    );
    expectOk(r, 200);
    return r.body.deployment;
  }

  /** A branch cut from main, with the given edits, merged: returns the merge body. */
  async shipChange(agentId: string, branchName: string, edit: (branchId: string) => Promise<unknown>) {
    const branch = await this.createBranch(agentId, branchName);
    await edit(branch.branchId);
    return this.merge(agentId, branch.branchId, { deploymentMessage: branchName });
  }
}

export interface Deployment {
  id: string;
  accountId: string;
  agentId: string;
  environment: 'sandbox' | 'pre-release' | 'live';
  version: number;
  artifactVersion: number;
  createdBy: string;
  createdAt: string;
  message: string;
}

/** Fails with the body in the message, which makes a broken precondition readable. */
export function expectOk(r: JsonResponse, status: number | number[]) {
  const allowed = Array.isArray(status) ? status : [status];
  if (!allowed.includes(r.status)) {
    throw new Error(`expected HTTP ${allowed.join(' or ')}, got ${r.status}: ${JSON.stringify(r.body)}`);
  }
}

export const bare = (prefixed: string) => prefixed.replace(/^(PROJECT-|BRANCH-|ws-)/, '');

export interface AgentsFixture {
  t: TestApp;
  account: AgentsAccount;
  api: AgentsClient;
  close(): Promise<void>;
}

/** One app, one account, one key: the shared setup of the Agents API e2e suites. */
export async function startAgentsFixture(env: Record<string, string> = {}): Promise<AgentsFixture> {
  const t = await startTestApp(env);
  try {
    const account = await createAccount(t);
    return { t, account, api: new AgentsClient(t, account), close: () => t.close() };
  } catch (error) {
    await t.close();
    throw error;
  }
}
