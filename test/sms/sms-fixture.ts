import { AgentsClient, createAccount, expectOk, type AgentsAccount } from '../helpers/agents-fixture';
import { eventually } from '../helpers/conversations-fixture';
import { op } from '../helpers/keys-fixtures';
import { request, startTestApp, type JsonResponse, type TestApp } from '../helpers/test-app';
import { signBody } from '../../src/sms/sms-signature';
import type { Json } from '../helpers/json';

export const AGENT_NUMBER = '+15550100001';

export const KB = [
  {
    name: 'Opening hours',
    content: 'We are open from nine to five, Monday to Friday.',
    queries: ['when are you open', 'opening hours', 'what time do you open'],
  },
  {
    name: 'Refunds',
    content: 'Refunds reach your card within 5 working days.',
    queries: ['can I get a refund', 'how do refunds work', 'money back'],
  },
  {
    name: 'Goodbye',
    content: 'Thanks for texting, goodbye!',
    queries: ['bye', 'goodbye', 'that is all thanks'],
    actions: 'end_conversation',
  },
  {
    name: 'Tracking',
    content: 'I will text you the tracking link.',
    queries: ['where is my parcel', 'track my order'],
    actions: 'send_sms text="Track it here: https://track.test/42"',
  },
];

export interface SmsConnector {
  connectorId: string;
  webhookSecret: string;
}

/** One app on the test clock; an account whose key holds `sms`; an agent deployed to sandbox; a dev connector and number. */
export interface SmsFixture {
  t: TestApp;
  account: AgentsAccount;
  api: AgentsClient;
  agentId: string;
  connector: SmsConnector;
  close(): Promise<void>;
}

export async function startSmsFixture(
  env: Record<string, string> = {},
  t?: TestApp,
  agentNumber = AGENT_NUMBER,
): Promise<SmsFixture> {
  const app = t ?? (await startTestApp({ PARLEY_TEST_CLOCK: '1', SMS_RATE_LIMIT_PER_PROJECT: '1000', ...env }));
  try {
    const account = await createAccount(app, 'Texting Co', ['agents', 'keys', 'sms', 'conversations']);
    const api = new AgentsClient(app, account);
    const agentId = (await api.createAgent('Texter', 'Hello from Texter!')).agentId;
    await api.shipChange(agentId, 'kb', async (branchId) => {
      for (const topic of KB) await api.addTopic(agentId, branchId, topic);
    });
    expectOk(
      await request(`${app.url}/v1/accounts/${account.accountId}/agents/${agentId}/data-access`, {
        method: 'PUT',
        body: { response_metrics: [], show_transcripts: true },
        headers: { 'x-api-key': account.key },
      }),
      200,
    );
    const connector = await createSmsConnector(app, account.accountId, agentId, 'dev');
    await provisionNumber(app, agentId, agentNumber, 'dev');
    return { t: app, account, api, agentId, connector, close: () => app.close() };
  } catch (error) {
    if (!t) await app.close();
    throw error;
  }
}

export async function createSmsConnector(
  t: TestApp,
  accountId: string,
  agentId: string,
  environment: string,
): Promise<SmsConnector> {
  const r = await request(`${t.url}/admin/v1/accounts/${accountId}/connectors`, {
    body: { agentId, kind: 'sms', environment },
    headers: op(t),
  });
  expectOk(r, 201);
  return { connectorId: r.body.connectorId, webhookSecret: r.body.webhookSecret };
}

export async function provisionNumber(
  t: TestApp,
  agentId: string,
  number: string,
  environment: string,
  pool?: 'main' | 'dni',
) {
  expectOk(
    await request(`${t.url}/admin/v1/agents/${agentId}/phone-numbers`, {
      body: { number, environment, ...(pool ? { pool } : {}) },
      headers: op(t),
    }),
    201,
  );
}

export function sendOutbound(
  f: SmsFixture,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<JsonResponse> {
  return request(`${f.t.url}/v1/outbound-sms`, {
    body,
    headers: { 'X-Service-Auth-Token': f.account.key, 'X-TOKEN-ID': f.connector.connectorId, ...headers },
  });
}

let providerSeq = 0;

/** The carrier's webhook call, signed with the connector's secret. */
export function sendInbound(
  t: TestApp,
  connector: SmsConnector,
  message: { from: string; to?: string; text: string; provider_message_id?: string },
  headers: Record<string, string> = {},
): Promise<JsonResponse> {
  const rawBody = JSON.stringify({
    to: AGENT_NUMBER,
    provider_message_id: `SMin${++providerSeq}-${Date.now()}`,
    ...message,
  });
  return request(`${t.url}/v1/sms/inbound/${connector.connectorId}`, {
    rawBody,
    headers: {
      'content-type': 'application/json',
      'X-Signature': signBody(connector.webhookSecret, rawBody),
      ...headers,
    },
  });
}

export interface CarrierMessage {
  id: string;
  conversation_id: string;
  from: string;
  to: string;
  text: string;
  status: string;
  carrier: string;
  provider_message_id: string;
  sent_at: string;
}

export async function carrierMessages(t: TestApp, number: string): Promise<CarrierMessage[]> {
  const r = await request(`${t.url}/admin/v1/sms/messages?number=${encodeURIComponent(number)}`, { headers: op(t) });
  expectOk(r, 200);
  return r.body.messages;
}

/** Waits until the carrier has delivered `count` texts to `number`; returns them. */
export function delivered(t: TestApp, number: string, count: number, timeoutMs = 5000): Promise<CarrierMessage[]> {
  return eventually(async () => {
    const messages = await carrierMessages(t, number);
    if (messages.length < count)
      throw new Error(
        `expected ${count} texts to ${number}, have ${messages.length}: ${JSON.stringify(messages.map((m) => m.text))}`,
      );
    return messages;
  }, timeoutMs);
}

/** Asserts that no more than `count` texts reach `number` within `ms`. */
export async function noMoreThan(t: TestApp, number: string, count: number, ms = 400): Promise<CarrierMessage[]> {
  await new Promise((resolve) => setTimeout(resolve, ms));
  const messages = await carrierMessages(t, number);
  expect(messages.map((m) => m.text)).toHaveLength(count);
  return messages;
}

export function conversation(f: SmsFixture, conversationId: string): Promise<JsonResponse> {
  return request(`${f.t.url}/v3/${f.account.accountId}/${f.agentId}/conversations/${conversationId}`, {
    headers: { 'x-api-key': f.account.key },
  });
}

/** The conversation once the Conversations API shows it as `check` expects. */
export function conversationWhen(
  f: SmsFixture,
  conversationId: string,
  check: (body: Json) => void,
  timeoutMs = 5000,
): Promise<Json> {
  return eventually(async () => {
    const r = await conversation(f, conversationId);
    expect(r.status).toBe(200);
    check(r.body);
    return r.body;
  }, timeoutMs);
}

let userSeq = 0;
/** A user number no other test of this process has used. */
export const newUserNumber = () => `+1555020${String(++userSeq).padStart(4, '0')}`;
