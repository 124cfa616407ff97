import { decodeJwt } from 'jose';
import { onPlatform } from './helpers/app-database';
import { expectEnvelope, request, type JsonResponse } from './helpers/test-app';
import {
  accessToken,
  createConnector,
  startMessagingFixture,
  token,
  type MessagingFixture,
} from './messaging/messaging-fixture';
import { inDays, op, withKey } from './helpers/keys-fixtures';

/**
 * Issue 30, finding 3 and 4: Idempotency-Key is honoured only after the route's credential has
 * checked out and is keyed by that credential, and the stored first answers hold no secret in clear.
 */
describe('idempotency after authentication', () => {
  let f: MessagingFixture;
  let other: { connectorId: string; connectorToken: string };
  const idem = (key: string, headers: Record<string, string> = {}) => ({ 'idempotency-key': key, ...headers });
  const sessions = (headers: Record<string, string>, body: unknown = { streaming_enabled: false }) =>
    request(`${f.t.url}/api/v1/sessions`, { body, headers });

  beforeAll(async () => {
    f = await startMessagingFixture();
    // a second connector of the same agent and host: a valid credential that is not the first caller's
    other = await createConnector(f.t, f.account.accountId, f.agentId, 'sandbox', 'example.com');
  });
  afterAll(async () => f.close());

  describe('POST /api/v1/access-token', () => {
    let first: JsonResponse;
    beforeAll(async () => {
      first = await accessToken(f.t, idem('tok-1', { 'X-Token': f.connectorToken, 'X-Host': 'example.com' }));
      expect(first.status).toBe(200);
    });

    it("a wrong or missing X-Token with another caller's key is refused, never answered with that caller's JWT", async () => {
      for (const headers of <Record<string, string>[]>[
        { 'X-Token': 'ct_wrongwrongwrongwrongwrongwrongwrongwrong', 'X-Host': 'example.com' },
        { 'X-Host': 'example.com' },
        {},
      ]) {
        const r = await accessToken(f.t, idem('tok-1', headers));
        expectEnvelope(r, 401);
        expect(JSON.stringify(r.body)).not.toContain(first.body.access_token);
        expect(r.headers.get('idempotent-replayed')).toBeNull();
      }
    });

    it('the right connector token with the wrong host is refused too', async () => {
      const r = await accessToken(f.t, idem('tok-1', { 'X-Token': f.connectorToken, 'X-Host': 'evil.com' }));
      expectEnvelope(r, 401, 'CONNECTOR_VALIDATION_FAILED');
    });

    it("another connector with the same key gets its own token, not the first caller's", async () => {
      const r = await accessToken(f.t, idem('tok-1', { 'X-Token': other.connectorToken, 'X-Host': 'example.com' }));
      expect(r.status).toBe(200);
      expect(r.body.access_token).not.toBe(first.body.access_token);
      expect(decodeJwt(r.body.access_token).sub).toBe(other.connectorId);
      expect(r.headers.get('idempotent-replayed')).toBeNull();
    });

    it('the same connector with the same key gets the first answer again', async () => {
      const r = await accessToken(f.t, idem('tok-1', { 'X-Token': f.connectorToken, 'X-Host': 'example.com' }));
      expect(r.status).toBe(200);
      expect(r.body).toEqual(first.body);
      expect(r.headers.get('idempotent-replayed')).toBe('true');
    });
  });

  describe('POST /api/v1/sessions', () => {
    let mine: string;
    let first: JsonResponse;
    beforeAll(async () => {
      mine = await token(f);
      first = await sessions(idem('ses-1', { authorization: `Bearer ${mine}` }));
      expect(first.status).toBe(200);
    });

    it("a wrong, forged or missing bearer with another caller's key is refused, never given that caller's session", async () => {
      const forged = `${mine.slice(0, mine.lastIndexOf('.'))}.AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA`;
      for (const headers of <Record<string, string>[]>[
        { authorization: 'Bearer not-a-jwt' },
        { authorization: `Bearer ${forged}` },
        {},
      ]) {
        const r = await sessions(idem('ses-1', headers));
        expect([400, 401]).toContain(r.status);
        expectEnvelope(r, r.status);
        expect(JSON.stringify(r.body)).not.toContain(first.body.session_id);
      }
    });

    it('another valid access token with the same key starts its own session', async () => {
      const theirs = await token(f);
      const r = await sessions(idem('ses-1', { authorization: `Bearer ${theirs}` }));
      expect(r.status).toBe(200);
      expect(r.body.session_id).not.toBe(first.body.session_id);
      expect(r.headers.get('idempotent-replayed')).toBeNull();
    });

    it('the same access token with the same key gets the first session again', async () => {
      const r = await sessions(idem('ses-1', { authorization: `Bearer ${mine}` }));
      expect(r.status).toBe(200);
      expect(r.body).toEqual(first.body);
      expect(r.headers.get('idempotent-replayed')).toBe('true');
    });
  });

  describe('API keys and the operator', () => {
    const keysUrl = () => `${f.t.url}/v1/accounts/${f.account.accountId}/api-keys`;
    const spec = () => ({ name: 'made once', agents: 'all', permissions: ['agents'], expiresAt: inDays(30) });

    it('a key created with an Idempotency-Key is replayed to its creator only; another key or a wrong one never sees its value', async () => {
      const body = spec();
      const first = await request(keysUrl(), { body, headers: withKey(f.account.key, idem('key-1')) });
      expect(first.status).toBe(201);
      const again = await request(keysUrl(), { body, headers: withKey(f.account.key, idem('key-1')) });
      expect(again.body).toEqual(first.body);
      expect(again.headers.get('idempotent-replayed')).toBe('true');

      const wrong = await request(keysUrl(), {
        body,
        headers: withKey('sk_notarealkeynotarealkeynotarealkey00', idem('key-1')),
      });
      expectEnvelope(wrong, 401);
      expectEnvelope(await request(keysUrl(), { body, headers: idem('key-1') }), 401);

      const operatorAnswer = await request(keysUrl(), { body, headers: { ...op(f.t), ...idem('key-1') } });
      expect(operatorAnswer.status).toBe(201);
      expect(operatorAnswer.body.key).not.toBe(first.body.key);
      expect(operatorAnswer.headers.get('idempotent-replayed')).toBeNull();
    });

    it('a route that authenticates no one ignores the header: nothing is stored for it', async () => {
      const before = await onPlatform<{ n: number }>(f.t.dataDir, 'SELECT COUNT(*) AS n FROM idempotency_record');
      const r = await request(`${f.t.url}/v1/sms/inbound/no-such-connector`, {
        rawBody: 'From=%2B15550001&To=%2B15550002&Body=hi',
        headers: { 'content-type': 'application/x-www-form-urlencoded', ...idem('anon-1') },
      });
      expect(r.status).toBeGreaterThanOrEqual(400);
      expect(r.status).toBeLessThan(500);
      const after = await onPlatform<{ n: number }>(f.t.dataDir, 'SELECT COUNT(*) AS n FROM idempotency_record');
      expect(Number(after.rows[0].n)).toBe(Number(before.rows[0].n));
    });
  });

  it('the platform database holds no key value, signing secret, connector token or JWT of the answers it replays', async () => {
    const created = await request(`${f.t.url}/v1/accounts/${f.account.accountId}/api-keys`, {
      body: { name: 'sealed', agents: 'all', permissions: ['agents'], expiresAt: inDays(30) },
      headers: withKey(f.account.key, idem('seal-key')),
    });
    expect(created.status).toBe(201);
    const sms = await request(`${f.t.url}/admin/v1/accounts/${f.account.accountId}/connectors`, {
      body: { agentId: f.agentId, kind: 'sms', environment: 'sandbox' },
      headers: { ...op(f.t), ...idem('seal-sms') },
    });
    expect(sms.status).toBe(201);
    const messaging = await request(`${f.t.url}/admin/v1/accounts/${f.account.accountId}/connectors`, {
      body: { agentId: f.agentId, kind: 'messaging', environment: 'sandbox', hostDomain: 'example.org' },
      headers: { ...op(f.t), ...idem('seal-messaging') },
    });
    expect(messaging.status).toBe(201);
    const jwt = await accessToken(f.t, idem('seal-token', { 'X-Token': f.connectorToken, 'X-Host': 'example.com' }));
    expect(jwt.status).toBe(200);
    const secrets = [created.body.key, sms.body.webhookSecret, messaging.body.connectorToken, jwt.body.access_token];
    for (const value of secrets) expect(typeof value).toBe('string');

    const { rows } = await onPlatform<Record<string, unknown>>(f.t.dataDir, 'SELECT * FROM idempotency_record');
    expect(rows.length).toBeGreaterThanOrEqual(4);
    const dump = JSON.stringify(rows);
    for (const value of secrets) expect(dump).not.toContain(value);
    expect(dump).not.toMatch(/sk_[a-z2-7]{8}|whsec_|ct_[a-z2-7]{8}|eyJ[A-Za-z0-9_-]{10}/);

    // and a replay opens the sealed answer with the server secret
    const again = await accessToken(f.t, idem('seal-token', { 'X-Token': f.connectorToken, 'X-Host': 'example.com' }));
    expect(again.body.access_token).toBe(jwt.body.access_token);
  });
});
