import { AgentsClient, createAccount, expectOk, oneYearAhead } from '../helpers/agents-fixture';
import { request, type JsonResponse, type TestApp } from '../helpers/test-app';

export const op = (t: TestApp) => ({ 'x-operator-token': t.operatorToken });

/** An account with an agent on sandbox that hands off on "speak to a human", answering a dev number. */
export interface CallAccount {
  accountId: string;
  agentId: string;
  agents: AgentsClient;
  number: string;
  /** conversations, handoff, dni, outbound_calling on every agent */
  key: string;
}

export async function callAccount(t: TestApp, name: string, number: string): Promise<CallAccount> {
  const account = await createAccount(t, name);
  const agents = new AgentsClient(t, account);
  const { agentId } = await agents.createAgent(`${name} line`, `Hello, ${name} here.`);
  await agents.shipChange(agentId, 'first', async (branchId) => {
    await agents.addTopic(agentId, branchId, {
      name: 'Opening hours',
      content: 'We open at nine.',
      queries: ['when do you open'],
    });
    await agents.addTopic(agentId, branchId, {
      name: 'Human',
      content: 'Putting you through to a colleague.',
      queries: ['speak to a human'],
      actions: 'handoff destination=desk reason=asked',
    });
  });
  await provision(t, agentId, number, 'dev');
  const r = await request(`${t.url}/admin/v1/accounts/${account.accountId}/api-keys`, {
    headers: op(t),
    body: {
      name: 'calls',
      agents: 'all',
      permissions: ['conversations', 'handoff', 'dni', 'outbound_calling'],
      expiresAt: oneYearAhead(),
    },
  });
  expectOk(r, 201);
  return { accountId: account.accountId, agentId, agents, number, key: r.body.key };
}

export async function provision(t: TestApp, agentId: string, number: string, environment: string, pool?: string) {
  const r = await request(`${t.url}/admin/v1/agents/${agentId}/phone-numbers`, {
    headers: op(t),
    body: { number, environment, ...(pool ? { pool } : {}) },
  });
  expectOk(r, [200, 201]);
  return r.body;
}

export const inboundCall = (t: TestApp, body: unknown): Promise<JsonResponse> =>
  request(`${t.url}/admin/v1/carrier/inbound-calls`, { method: 'POST', headers: op(t), body });

export const limits = (t: TestApp, accountId: string, key: string) =>
  request(`${t.url}/v1/accounts/${accountId}/limits`, { headers: { 'x-api-key': key } });

export const setLimit = (t: TestApp, accountId: string, body: unknown) =>
  request(`${t.url}/admin/v1/accounts/${accountId}/limits`, { method: 'PUT', headers: op(t), body });
