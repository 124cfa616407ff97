import { AgentsClient, expectOk, oneYearAhead } from '../helpers/agents-fixture';
import { op } from '../helpers/keys-fixtures';
import { request, startTestApp, type TestApp } from '../helpers/test-app';
import { PERMISSIONS } from '../../src/accounts/permissions';

/**
 * One of each thing a route's path can name, created over HTTP before the fuzzing starts, so that
 * hostile bodies and queries meet real resources (and so reach the deciders) rather than a 404.
 */
export interface FuzzWorld {
  t: TestApp;
  /** every credential header a route may ask for; sent on every request */
  headers: Record<string, string>;
  /** the SMS connector's secret: the inbound route's X-Signature is computed over each body */
  smsWebhookSecret: string;
  /** real ids by path parameter name */
  ids: Record<string, string>;
  close(): Promise<void>;
}

export const AGENT_NUMBER = '+15550100001';

/**
 * The app for fuzzing: the test clock (so its route is fuzzed too) and a short read-your-writes
 * bound, so a command whose events a read model cannot apply answers 503 in seconds, not minutes.
 */
const FUZZ_APP_ENV: Record<string, string> = {
  PARLEY_TEST_CLOCK: '1',
  READ_YOUR_WRITES_TIMEOUT_MS: '2000',
  DEBUG_CHAT_TIMEOUT_S: '86400',
  SMS_RATE_LIMIT_PER_PROJECT: '100000',
};

export async function startFuzzWorld(): Promise<FuzzWorld> {
  const t = await startTestApp(FUZZ_APP_ENV);
  try {
    return await populate(t);
  } catch (error) {
    await t.close();
    throw error;
  }
}

/** One of each thing, created over HTTP on an app already running (a child process, a cluster's member). */
export async function populate(t: TestApp): Promise<FuzzWorld> {
  const operator = op(t);
  const account = await request(`${t.url}/admin/v1/accounts`, {
    body: { name: 'Fuzz Co', region: 'us' },
    headers: operator,
  });
  expectOk(account, 201);
  const accountId: string = account.body.accountId;
  const issue = async (name: string) => {
    const r = await request(`${t.url}/admin/v1/accounts/${accountId}/api-keys`, {
      body: { name, agents: 'all', permissions: [...PERMISSIONS], expiresAt: oneYearAhead() },
      headers: operator,
    });
    expectOk(r, 201);
    return r.body as { id: string; key: string };
  };
  const caller = await issue('fuzz caller');
  // the key whose id fills `:keyId`: PATCH and DELETE fuzz it, never the caller's own key
  const victim = await issue('fuzz victim');
  const api = new AgentsClient(t, {
    accountId,
    accountSlug: accountId.replace(/^ws-/, ''),
    key: caller.key,
    keyId: caller.id,
  });

  const { agentId } = await api.createAgent('Fuzz bot', 'Hello from the fuzz bot');
  const shipped = await api.shipChange(agentId, 'seed', (branchId) =>
    api.addTopic(agentId, branchId, {
      name: 'Opening hours',
      content: 'We open at nine.',
      queries: ['when do you open'],
    }),
  );
  const sandbox = (await api.active(agentId)).sandbox!;
  const branch = await api.createBranch(agentId, 'fuzz');
  const topic = await api.addTopic(agentId, branch.branchId, {
    name: 'Refunds',
    content: 'Refunds take five days.',
    queries: ['refund please'],
  });
  const testCase = await api.post(`/v1/agents/${agentId}/branches/${branch.branchId}/tests`, {
    name: 'asks for refunds',
    turns: [{ user: 'refund please', expect: { topic: 'Refunds' } }],
  });
  expectOk(testCase, 201);
  const tool = await api.post(`/v1/agents/${agentId}/branches/${branch.branchId}/tools`, {
    name: 'order_status',
    description: 'Looks an order up',
    url: 'https://tools.example.com/orders',
    parameters: { type: 'object', properties: { order: { type: 'string' } } },
  });
  expectOk(tool, 201);

  const chat = await api.post(`/v1/agents/${agentId}/debug-chat`, { clientEnv: 'sandbox' });
  expectOk(chat, [200, 201]);

  const keyed = { 'x-api-key': caller.key };
  const rule = await request(`${t.url}/v1/alert-rules`, {
    body: {
      name: 'fuzz rule',
      project_id: agentId,
      metric: 'api_errors',
      operator: '>',
      threshold_value: 1000,
      window_duration: '60m',
      enabled: false,
    },
    headers: keyed,
  });
  expectOk(rule, 201);
  // disabled: the fuzz never makes the app deliver to a real address
  const endpoint = await request(`${t.url}/v1/webhook-endpoints`, {
    body: {
      name: 'fuzz endpoint',
      url: 'https://example.com/parley-fuzz',
      event_types: ['alerts.triggered'],
      enabled: false,
    },
    headers: keyed,
  });
  expectOk(endpoint, 201);

  // a model endpoint no agent names: DELETE fuzzes it, the app never calls it
  const llmEndpoint = await request(`${t.url}/admin/v1/llm-endpoints`, {
    body: { name: 'fuzz-model', base_url: 'https://example.com/parley-fuzz-llm' },
    headers: operator,
  });
  expectOk(llmEndpoint, 201);
  // an embeddings endpoint of the same name (`endpointName` serves both lists' routes), no agent names it either
  const embeddingEndpoint = await request(`${t.url}/admin/v1/embedding-endpoints`, {
    body: { name: 'fuzz-model', base_url: 'https://example.com/parley-fuzz-embed', model: 'fuzz-embed' },
    headers: operator,
  });
  expectOk(embeddingEndpoint, 201);

  const messaging = await request(`${t.url}/admin/v1/accounts/${accountId}/connectors`, {
    body: { agentId, kind: 'messaging', environment: 'sandbox', hostDomain: 'example.com' },
    headers: operator,
  });
  expectOk(messaging, 201);
  const sms = await request(`${t.url}/admin/v1/accounts/${accountId}/connectors`, {
    body: { agentId, kind: 'sms', environment: 'dev' },
    headers: operator,
  });
  expectOk(sms, 201);
  expectOk(
    await request(`${t.url}/admin/v1/agents/${agentId}/phone-numbers`, {
      body: { number: AGENT_NUMBER, environment: 'dev' },
      headers: operator,
    }),
    [200, 201],
  );
  const token = await request(`${t.url}/api/v1/access-token`, {
    method: 'POST',
    headers: { 'x-token': messaging.body.connectorToken, 'x-host': 'shop.example.com' },
  });
  expectOk(token, 200);

  const call = await request(`${t.url}/v1/outbound-calling`, {
    body: { to_number: '+447700900123' },
    headers: { 'x-service-auth-token': caller.key },
  });
  expectOk(call, [200, 201]);

  return {
    t,
    headers: {
      'x-api-key': caller.key,
      'x-service-auth-token': caller.key,
      'x-operator-token': t.operatorToken,
      'x-token-id': sms.body.connectorId,
      'x-token': messaging.body.connectorToken,
      'x-host': 'shop.example.com',
      authorization: `Bearer ${token.body.access_token}`,
    },
    smsWebhookSecret: sms.body.webhookSecret,
    ids: {
      accountId,
      agentId,
      projectId: agentId,
      branchId: branch.branchId,
      topicId: topic.id,
      testId: testCase.body.id,
      toolId: tool.body.id,
      testRunId: shipped.testRunIds[0],
      deploymentId: sandbox.id,
      conversationId: chat.body.conversationId,
      ruleId: rule.body.id,
      endpointId: endpoint.body.id,
      endpointName: llmEndpoint.body.name,
      keyId: victim.id,
      callSid: call.body.call_sid,
      connectorId: sms.body.connectorId,
      // GET /docs/:file (the API reference's swagger-ui files)
      file: 'init.js',
      // POST /admin/v1/read-models/:name/rebuild: not a real read model on purpose; a rebuild's
      // switch briefly leaves its read model unreadable (503), which would fail the next routes
      name: 'fuzz-read-model',
    },
    close: () => t.close(),
  };
}
