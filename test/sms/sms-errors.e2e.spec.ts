import { createAccount } from '../helpers/agents-fixture';
import { op } from '../helpers/keys-fixtures';
import { expectEnvelope, request, startTestApp } from '../helpers/test-app';
import { signBody } from '../../src/sms/sms-signature';
import {
  AGENT_NUMBER,
  createSmsConnector,
  delivered,
  newUserNumber,
  noMoreThan,
  provisionNumber,
  sendInbound,
  sendOutbound,
  startSmsFixture,
  type SmsFixture,
} from './sms-fixture';

const inDays = (days: number) => new Date(Date.now() + days * 86400_000).toISOString();

/** The SMS error catalogue (contract §2, §11): statuses, codes, the envelope with `detail`. */
describe('SMS errors', () => {
  let f: SmsFixture;

  beforeAll(async () => {
    f = await startSmsFixture();
  });
  afterAll(async () => f.close());

  const key = (permissions: string[], agents: 'all' | string[] = 'all', accountId = f.account.accountId) =>
    request(`${f.t.url}/admin/v1/accounts/${accountId}/api-keys`, {
      body: { name: 'k', agents, permissions, expiresAt: inDays(30) },
      headers: op(f.t),
    }).then((r) => r.body.key as string);
  const smsError = (r: Awaited<ReturnType<typeof sendOutbound>>, status: number, code: string) => {
    const body = expectEnvelope(r, status, code);
    expect(body.detail).toBe(body.error_message);
    return body;
  };

  describe('POST /v1/outbound-sms', () => {
    const ok = () => ({ user_number: newUserNumber(), message: 'hello' });

    it('401 without a key, with an unknown key, with the key in x-api-key, or without X-TOKEN-ID', async () => {
      smsError(await sendOutbound(f, ok(), { 'X-Service-Auth-Token': '' }), 401, 'API_KEY_MISSING');
      smsError(await sendOutbound(f, ok(), { 'X-Service-Auth-Token': 'sk_nope' }), 401, 'API_KEY_INVALID');
      const wrongHeader = await request(`${f.t.url}/v1/outbound-sms`, {
        body: ok(),
        headers: { 'x-api-key': f.account.key, 'X-TOKEN-ID': f.connector.connectorId },
      });
      smsError(wrongHeader, 401, 'API_KEY_MISSING');
      smsError(await sendOutbound(f, ok(), { 'X-TOKEN-ID': '' }), 401, 'CONNECTOR_ID_MISSING');
    });

    it('403 for a key without `sms`, a key of another account, or a key not scoped to the agent', async () => {
      smsError(
        await sendOutbound(f, ok(), { 'X-Service-Auth-Token': await key(['agents']) }),
        403,
        'PERMISSION_DENIED',
      );
      const other = await createAccount(f.t, 'Other Co', ['sms']);
      smsError(await sendOutbound(f, ok(), { 'X-Service-Auth-Token': other.key }), 403, 'ACCOUNT_FORBIDDEN');
      const elsewhere = (await f.api.createAgent('Another bot')).agentId;
      smsError(
        await sendOutbound(f, ok(), { 'X-Service-Auth-Token': await key(['sms'], [elsewhere]) }),
        403,
        'AGENT_FORBIDDEN',
      );
    });

    it('404 for an unknown connector or one of another kind', async () => {
      smsError(await sendOutbound(f, ok(), { 'X-TOKEN-ID': 'con_nosuchthing' }), 404, 'CONNECTOR_NOT_FOUND');
      const messaging = await request(`${f.t.url}/admin/v1/accounts/${f.account.accountId}/connectors`, {
        body: { agentId: f.agentId, kind: 'messaging', environment: 'sandbox', hostDomain: 'example.com' },
        headers: op(f.t),
      });
      smsError(await sendOutbound(f, ok(), { 'X-TOKEN-ID': messaging.body.connectorId }), 404, 'CONNECTOR_NOT_FOUND');
    });

    it('400 naming the field for a bad user_number, agent_number or message', async () => {
      for (const [body, field] of [
        [{ user_number: '5550001', message: 'hi' }, 'user_number'],
        [{ message: 'hi' }, 'user_number'],
        [{ user_number: newUserNumber(), message: '' }, 'message'],
        [{ user_number: newUserNumber(), message: 'x'.repeat(1601) }, 'message'],
        [{ user_number: newUserNumber(), message: 7 }, 'message'],
        [{ user_number: newUserNumber(), message: 'hi', agent_number: 'nope' }, 'agent_number'],
      ] as const) {
        const e = smsError(await sendOutbound(f, body), 400, 'VALIDATION_ERROR');
        expect(e.error_message).toContain(field);
      }
      smsError(
        await request(`${f.t.url}/v1/outbound-sms`, {
          rawBody: '{"user_number":',
          headers: {
            'content-type': 'application/json',
            'X-Service-Auth-Token': f.account.key,
            'X-TOKEN-ID': f.connector.connectorId,
          },
        }),
        400,
        'INVALID_JSON',
      );
    });

    it('400 for an agent_number that is not provisioned for the connector (nothing is sent)', async () => {
      const user = newUserNumber();
      const e = smsError(
        await sendOutbound(f, { user_number: user, message: 'hi', agent_number: '+15559999999' }),
        400,
        'AGENT_NUMBER_NOT_PROVISIONED',
      );
      expect(e.error_message).toContain('agent_number');
      // the agent's own number in another environment is not this connector's either
      await provisionNumber(f.t, f.agentId, '+15550100099', 'live');
      smsError(
        await sendOutbound(f, { user_number: user, message: 'hi', agent_number: '+15550100099' }),
        400,
        'AGENT_NUMBER_NOT_PROVISIONED',
      );
      await noMoreThan(f.t, user, 0, 100);
      const r = await sendOutbound(f, { user_number: user, message: 'hi', agent_number: AGENT_NUMBER });
      expect(r.status).toBe(202);
    });

    it('404 when no number is provisioned for the environment, or nothing is deployed there', async () => {
      const sandbox = await createSmsConnector(f.t, f.account.accountId, f.agentId, 'sandbox');
      smsError(await sendOutbound(f, ok(), { 'X-TOKEN-ID': sandbox.connectorId }), 404, 'SMS_NUMBER_NOT_FOUND');
      // a DNI pool number stands for a reservation's caller: never the agent's default sender
      await provisionNumber(f.t, f.agentId, '+15550100003', 'sandbox', 'dni');
      smsError(await sendOutbound(f, ok(), { 'X-TOKEN-ID': sandbox.connectorId }), 404, 'SMS_NUMBER_NOT_FOUND');
      // numbers of `sandbox` serve pre-release (contract §11), where nothing is deployed yet
      await provisionNumber(f.t, f.agentId, '+15550100002', 'sandbox');
      smsError(await sendOutbound(f, ok(), { 'X-TOKEN-ID': sandbox.connectorId }), 404, 'NO_ACTIVE_DEPLOYMENT');
      smsError(
        await sendInbound(f.t, sandbox, { from: newUserNumber(), to: '+15550100002', text: 'hi' }),
        404,
        'NO_ACTIVE_DEPLOYMENT',
      );
    });
  });

  describe('POST /v1/sms/inbound/{connectorId}', () => {
    const body = () =>
      JSON.stringify({
        from: newUserNumber(),
        to: AGENT_NUMBER,
        text: 'opening hours',
        provider_message_id: `SM${Math.random()}`,
      });
    const post = (rawBody: string, headers: Record<string, string>, connectorId = f.connector.connectorId) =>
      request(`${f.t.url}/v1/sms/inbound/${connectorId}`, {
        rawBody,
        headers: { 'content-type': 'application/json', ...headers },
      });

    it('401 for a missing or wrong signature: nothing is recorded or answered', async () => {
      const raw = body();
      const user = JSON.parse(raw).from;
      smsError(await post(raw, {}), 401, 'SIGNATURE_MISSING');
      smsError(await post(raw, { 'X-Signature': signBody('whsec_wrong', raw) }), 401, 'SIGNATURE_INVALID');
      smsError(
        await post(raw, { 'X-Signature': signBody(f.connector.webhookSecret, `${raw} `) }),
        401,
        'SIGNATURE_INVALID',
      );
      smsError(await post(raw, { 'X-Signature': 'sha256=zz' }), 401, 'SIGNATURE_INVALID');
      await noMoreThan(f.t, user, 0, 200);
      const signed = await post(raw, { 'X-Signature': signBody(f.connector.webhookSecret, raw) });
      expect(signed.status).toBe(200);
      await delivered(f.t, user, 1);
    });

    it('the signature is over the raw bytes: a re-serialised body with the same fields fails', async () => {
      const raw = body();
      const spaced = JSON.stringify(JSON.parse(raw), null, 2);
      smsError(
        await post(spaced, { 'X-Signature': signBody(f.connector.webhookSecret, raw) }),
        401,
        'SIGNATURE_INVALID',
      );
      expect((await post(spaced, { 'X-Signature': signBody(f.connector.webhookSecret, spaced) })).status).toBe(200);
    });

    it('takes form-encoded bodies as carriers post them', async () => {
      const user = newUserNumber();
      const raw = new URLSearchParams({
        from: user,
        to: AGENT_NUMBER,
        text: 'opening hours',
        provider_message_id: 'SMform1',
      }).toString();
      const r = await post(raw, {
        'content-type': 'application/x-www-form-urlencoded',
        'X-Signature': signBody(f.connector.webhookSecret, raw),
      });
      expect(r.status).toBe(200);
      await delivered(f.t, user, 1);
    });

    it('404 for an unknown connector', async () => {
      const raw = body();
      smsError(
        await post(raw, { 'X-Signature': signBody(f.connector.webhookSecret, raw) }, 'con_nosuchthing'),
        404,
        'CONNECTOR_NOT_FOUND',
      );
    });

    it('400 for a bad body or a number not provisioned for the connector (signed correctly)', async () => {
      const sign = (raw: string) => ({ 'X-Signature': signBody(f.connector.webhookSecret, raw) });
      for (const [raw, code] of [
        ['{"from":', 'INVALID_JSON'],
        [JSON.stringify({ from: 'x', to: AGENT_NUMBER, text: 'hi', provider_message_id: 'a' }), 'VALIDATION_ERROR'],
        [JSON.stringify({ from: newUserNumber(), to: AGENT_NUMBER, provider_message_id: 'a' }), 'VALIDATION_ERROR'],
        [JSON.stringify({ from: newUserNumber(), to: AGENT_NUMBER, text: 'hi' }), 'VALIDATION_ERROR'],
        [
          JSON.stringify({ from: newUserNumber(), to: '+15559999999', text: 'hi', provider_message_id: 'a' }),
          'SMS_NUMBER_NOT_PROVISIONED',
        ],
      ] as const) {
        smsError(await post(raw, sign(raw)), 400, code);
      }
      const xml = '<sms/>';
      smsError(await post(xml, { 'content-type': 'application/xml', ...sign(xml) }), 415, 'UNSUPPORTED_MEDIA_TYPE');
    });
  });
});

describe('SMS per-project rate limit', () => {
  it('429 with Retry-After past the project rate; another project keeps its own', async () => {
    const t = await startTestApp({ PARLEY_TEST_CLOCK: '1', SMS_RATE_LIMIT_PER_PROJECT: '1' });
    try {
      const a = await startSmsFixture({}, t);
      // all at once: the limiter is on the wall clock, and one by one a slow machine refills the bucket
      // (1 a second) between sends; the burst (twice the rate) passes, the rest are refused
      const answers = await Promise.all(
        Array.from({ length: 12 }, (_, i) => sendOutbound(a, { user_number: newUserNumber(), message: `hi ${i}` })),
      );
      const statuses = answers.map((r) => r.status);
      expect(statuses.every((s) => s === 202 || s === 429)).toBe(true);
      expect(statuses.filter((s) => s === 202).length).toBeGreaterThanOrEqual(2);
      const limited = answers.find((r) => r.status === 429)!;
      const body = expectEnvelope(limited, 429, 'SMS_RATE_LIMITED');
      expect(body.detail).toBe(body.error_message);
      expect(Number(limited.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      const b = await startSmsFixture({}, t, '+15550100077');
      expect((await sendOutbound(b, { user_number: newUserNumber(), message: 'hi' })).status).toBe(202);
    } finally {
      await t.close();
    }
  });
});
