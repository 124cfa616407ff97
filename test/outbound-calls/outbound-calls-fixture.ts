import { AgentsClient, createAccount, expectOk, oneYearAhead } from '../helpers/agents-fixture';
import { request, type JsonResponse, type TestApp } from '../helpers/test-app';
import { patient } from '../support/patience';

/** An account with an agent deployed to sandbox, and a key for the Outbound Calling API. */
export interface CallingAccount {
  accountId: string;
  agentId: string;
  agents: AgentsClient;
  /** holds outbound_calling (and conversations, to read the calls back) on every agent */
  token: string;
}

const op = (t: TestApp) => ({ 'x-operator-token': t.operatorToken });

export async function issueKey(
  t: TestApp,
  accountId: string,
  permissions: string[],
  agents: 'all' | string[] = 'all',
): Promise<string> {
  const r = await request(`${t.url}/admin/v1/accounts/${accountId}/api-keys`, {
    headers: op(t),
    body: { name: 'outbound', agents, permissions, expiresAt: oneYearAhead() },
  });
  expectOk(r, 201);
  return r.body.key;
}

export async function provisionNumber(
  t: TestApp,
  agentId: string,
  number: string,
  environment: 'dev' | 'sandbox' | 'live',
) {
  const r = await request(`${t.url}/admin/v1/agents/${agentId}/phone-numbers`, {
    headers: op(t),
    body: { number, environment },
  });
  expectOk(r, [200, 201]);
}

export async function callingAccount(
  t: TestApp,
  name: string,
  greeting: string,
  number: string,
): Promise<CallingAccount> {
  const account = await createAccount(t, name);
  const agents = new AgentsClient(t, account);
  const { agentId } = await agents.createAgent(`${name} caller`, greeting);
  // a merge publishes to sandbox, which the `dev` numbers answer from (contract §11)
  await agents.shipChange(agentId, 'first', (branchId) =>
    agents.addTopic(agentId, branchId, {
      name: 'Opening hours',
      content: 'We open at nine.',
      queries: ['when do you open'],
    }),
  );
  await provisionNumber(t, agentId, number, 'dev');
  return {
    accountId: account.accountId,
    agentId,
    agents,
    token: await issueKey(t, account.accountId, ['outbound_calling', 'conversations']),
  };
}

export const placeCall = (
  t: TestApp,
  token: string | null,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<JsonResponse> =>
  request(`${t.url}/v1/outbound-calling`, {
    method: 'POST',
    body,
    headers: { ...(token ? { 'X-Service-Auth-Token': token } : {}), ...headers },
  });

export const callStatus = (t: TestApp, token: string, callSid: string): Promise<JsonResponse> =>
  request(`${t.url}/v1/outbound-calling/${encodeURIComponent(callSid)}/status`, {
    headers: { 'X-Service-Auth-Token': token },
  });

/** Polls until `check` passes: the process manager moves calls on behind the request. */
export async function eventually<T>(
  probe: () => Promise<T>,
  check: (value: T) => boolean,
  timeoutMs = 5000,
): Promise<T> {
  const deadline = Date.now() + patient(timeoutMs);
  for (;;) {
    const value = await probe();
    if (check(value)) return value;
    if (Date.now() > deadline)
      throw new Error(`condition not met within ${patient(timeoutMs)} ms; last value: ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

export async function statusBecomes(t: TestApp, token: string, callSid: string, status: string, timeoutMs = 5000) {
  const r = await eventually(
    () => callStatus(t, token, callSid),
    (s) => s.status === 200 && s.body.status === status,
    timeoutMs,
  );
  return r.body as { call_sid: string; status: string; reason: string | null };
}
