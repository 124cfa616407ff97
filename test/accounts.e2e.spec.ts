import { ReadModels } from '../src/read-models/read-models.service';
import { PhoneNumberRow } from '../projections/accounts/accounts.entities';
import { expectEnvelope, request, startTestApp, type TestApp } from './helpers/test-app';
import {
  ALL_PERMISSIONS,
  createAccount,
  createAgent,
  errorText,
  inDays,
  op,
  operatorKey,
  withKey,
} from './helpers/keys-fixtures';
import type { Json } from './helpers/json';

const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/** The operator API of contract §3. */
describe('operator API (contract §3)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => t.close());

  describe('the operator token', () => {
    const routes: Array<[string, string, unknown]> = [
      ['POST', '/admin/v1/accounts', { name: 'x', region: 'us' }],
      ['GET', '/admin/v1/accounts', undefined],
      [
        'POST',
        '/admin/v1/accounts/ws-whatever/api-keys',
        { name: 'k', agents: 'all', permissions: ['agents'], expiresAt: inDays(5) },
      ],
      ['POST', '/admin/v1/accounts/ws-whatever/connectors', { agentId: 'PROJECT-x', kind: 'sms', environment: 'dev' }],
      ['POST', '/admin/v1/agents/PROJECT-x/phone-numbers', { number: '+15551234567', environment: 'dev' }],
      ['PUT', '/admin/v1/agents/PROJECT-x/settings', { chunked_streaming: true }],
    ];

    it.each(routes)('%s %s without x-operator-token: 401', async (method, path, body) => {
      expectEnvelope(await request(`${t.url}${path}`, { method, body }), 401);
    });

    it.each(routes)('%s %s with a wrong x-operator-token: 401', async (method, path, body) => {
      expectEnvelope(
        await request(`${t.url}${path}`, { method, body, headers: { 'x-operator-token': 'wrong-token-wrong-token' } }),
        401,
      );
    });

    it('an API key is not an operator token', async () => {
      const accountId = await createAccount(t);
      const { key } = await operatorKey(t, accountId);
      expectEnvelope(await request(`${t.url}/admin/v1/accounts`, { headers: withKey(key) }), 401);
      expectEnvelope(await request(`${t.url}/admin/v1/accounts`, { headers: { 'x-operator-token': key } }), 401);
    });
  });

  describe('accounts', () => {
    it('POST creates an account: 201 {accountId: ws-…, name, region, createdAt}', async () => {
      const r = await request(`${t.url}/admin/v1/accounts`, { body: { name: 'Globex', region: 'eu' }, headers: op(t) });
      expect(r.status).toBe(201);
      expect(Object.keys(r.body).sort()).toEqual(['accountId', 'createdAt', 'name', 'region']);
      expect(r.body).toMatchObject({ name: 'Globex', region: 'eu' });
      expect(r.body.accountId).toMatch(/^ws-[A-Za-z0-9_-]+$/);
      expect(r.body.createdAt).toMatch(ISO_MS);
    });

    it.each(['us', 'uk', 'eu', 'studio'])('accepts region %s', async (region) => {
      const r = await request(`${t.url}/admin/v1/accounts`, { body: { name: `in ${region}`, region }, headers: op(t) });
      expect(r.status).toBe(201);
      expect(r.body.region).toBe(region);
    });

    it('GET lists the accounts: 200 {accounts: [...]}', async () => {
      const a = await request(`${t.url}/admin/v1/accounts`, {
        body: { name: 'Listed one', region: 'uk' },
        headers: op(t),
      });
      const r = await request(`${t.url}/admin/v1/accounts`, { headers: op(t) });
      expect(r.status).toBe(200);
      expect(Array.isArray(r.body.accounts)).toBe(true);
      expect(r.body.accounts).toContainEqual(a.body);
      const ids = r.body.accounts.map((x: Json) => x.accountId);
      expect(new Set(ids).size).toBe(ids.length);
      for (const account of r.body.accounts) expect(account.accountId).toMatch(/^ws-/);
    });

    it('two accounts with the same name are two accounts', async () => {
      const a = await createAccount(t, 'Twin', 'us');
      const b = await createAccount(t, 'Twin', 'us');
      expect(a).not.toBe(b);
    });

    it.each([
      ['missing name', { region: 'us' }, 'name'],
      ['empty name', { name: '', region: 'us' }, 'name'],
      ['name of the wrong type', { name: 42, region: 'us' }, 'name'],
      ['oversized name', { name: 'n'.repeat(5000), region: 'us' }, 'name'],
      ['missing region', { name: 'x' }, 'region'],
      ['unknown region', { name: 'x', region: 'mars' }, 'region'],
      ['platform region value', { name: 'x', region: 'us-1' }, 'region'],
      ['region of the wrong type', { name: 'x', region: 1 }, 'region'],
      ['unknown field', { name: 'x', region: 'us', plan: 'gold' }, 'plan'],
    ])('refuses a body with %s: 400 naming the field', async (_what, body, field) => {
      const r = await request(`${t.url}/admin/v1/accounts`, { body, headers: op(t) });
      const envelope = expectEnvelope(r, 400);
      expect(errorText(envelope)).toContain(field);
      expect(JSON.stringify(r.body)).not.toMatch(/\bat .*\.(ts|js):\d+/);
    });

    it('refuses malformed JSON with 400', async () => {
      const r = await request(`${t.url}/admin/v1/accounts`, {
        rawBody: '{"name": "x", "region":',
        headers: { ...op(t), 'content-type': 'application/json' },
      });
      expectEnvelope(r, 400, 'INVALID_JSON');
    });

    it('refuses a body that is not an object with 400', async () => {
      for (const body of [[], 'text', 12, null]) {
        const r = await request(`${t.url}/admin/v1/accounts`, { body, headers: op(t) });
        expect(r.status).toBe(400);
      }
    });
  });

  describe('operator-issued keys', () => {
    it('the operator creates a key for an account: 201 as contract §4', async () => {
      const accountId = await createAccount(t);
      const expiresAt = inDays(60);
      const r = await request(`${t.url}/admin/v1/accounts/${accountId}/api-keys`, {
        body: {
          name: 'v3 conversations',
          agents: 'all',
          permissions: ['conversations', 'external_events', 'outbound_calling'],
          expiresAt,
        },
        headers: op(t),
      });
      expect(r.status).toBe(201);
      expect(r.body).toMatchObject({
        name: 'v3 conversations',
        agents: 'all',
        permissions: ['conversations', 'external_events', 'outbound_calling'],
        expiresAt,
      });
      expect(r.body.id).toMatch(/^key_/);
      expect(r.body.key).toMatch(/^sk_/);
      // the operator key works on the account's APIs
      const agents = await request(`${t.url}/v1/accounts/${accountId}/agents`, {
        headers: withKey((await operatorKey(t, accountId, { permissions: ['agents'] })).key),
      });
      expect(agents.status).toBe(200);
    });

    it('the operator may grant every permission', async () => {
      const accountId = await createAccount(t);
      const body = await operatorKey(t, accountId, { permissions: [...ALL_PERMISSIONS] });
      expect([...body.permissions].sort()).toEqual([...ALL_PERMISSIONS].sort());
    });

    it('a key for an unknown account: 404', async () => {
      const r = await request(`${t.url}/admin/v1/accounts/ws-nosuchacct/api-keys`, {
        body: { name: 'k', agents: 'all', permissions: ['agents'], expiresAt: inDays(5) },
        headers: op(t),
      });
      expectEnvelope(r, 404, 'ACCOUNT_NOT_FOUND');
    });

    it('validates the body like §4 (400 naming the field)', async () => {
      const accountId = await createAccount(t);
      const r = await request(`${t.url}/admin/v1/accounts/${accountId}/api-keys`, {
        body: { name: 'k', agents: 'all', permissions: ['root'], expiresAt: inDays(5) },
        headers: op(t),
      });
      expect(errorText(expectEnvelope(r, 400))).toContain('permissions');
    });
  });

  describe('connectors', () => {
    let accountId: string;
    let otherAccountId: string;
    let agentId: string;
    let otherAgentId: string;
    beforeAll(async () => {
      accountId = await createAccount(t, 'Connectors');
      otherAccountId = await createAccount(t, 'Other');
      const key = (await operatorKey(t, accountId, { permissions: ['agents'] })).key;
      const otherKey = (await operatorKey(t, otherAccountId, { permissions: ['agents'] })).key;
      agentId = await createAgent(t, accountId, key);
      otherAgentId = await createAgent(t, otherAccountId, otherKey);
    });
    const post = (body: unknown, account = accountId) =>
      request(`${t.url}/admin/v1/accounts/${account}/connectors`, { body, headers: op(t) });

    it('a messaging connector: 201 with a connectorToken (ct_…) shown once, no webhook secret', async () => {
      const r = await post({ agentId, kind: 'messaging', environment: 'live', hostDomain: 'shop.example.com' });
      expect(r.status).toBe(201);
      expect(r.body).toMatchObject({ agentId, kind: 'messaging', environment: 'live' });
      expect(typeof r.body.connectorId).toBe('string');
      expect(r.body.connectorToken).toMatch(/^ct_[A-Za-z0-9_-]{20,}$/);
      expect(r.body).not.toHaveProperty('webhookSecret');
    });

    it('each messaging connector gets its own token', async () => {
      const a = await post({ agentId, kind: 'messaging', environment: 'sandbox', hostDomain: 'example.com' });
      const b = await post({ agentId, kind: 'messaging', environment: 'sandbox', hostDomain: 'example.com' });
      expect(a.body.connectorId).not.toBe(b.body.connectorId);
      expect(a.body.connectorToken).not.toBe(b.body.connectorToken);
    });

    it('a messaging connector needs hostDomain: 400 naming it', async () => {
      const r = await post({ agentId, kind: 'messaging', environment: 'live' });
      expect(errorText(expectEnvelope(r, 400))).toContain('hostDomain');
    });

    it('refuses a hostDomain that is not a domain: 400', async () => {
      const r = await post({
        agentId,
        kind: 'messaging',
        environment: 'live',
        hostDomain: 'https://evil.example.com/path',
      });
      expect(errorText(expectEnvelope(r, 400))).toContain('hostDomain');
    });

    it.each(['dev', 'sandbox', 'live'])(
      'an sms connector (environment %s): 201 with a webhookSecret (whsec_…) shown once, no connector token',
      async (environment) => {
        const r = await post({ agentId, kind: 'sms', environment });
        expect(r.status).toBe(201);
        expect(r.body).toMatchObject({ agentId, kind: 'sms', environment });
        expect(r.body.webhookSecret).toMatch(/^whsec_[A-Za-z0-9_-]{20,}$/);
        expect(r.body).not.toHaveProperty('connectorToken');
      },
    );

    it.each([
      ['unknown kind', { kind: 'fax', environment: 'dev' }, 'kind'],
      ['missing kind', { environment: 'dev' }, 'kind'],
      ['unknown environment', { kind: 'sms', environment: 'staging' }, 'environment'],
      ['missing environment', { kind: 'sms' }, 'environment'],
      ['a deployment environment on an sms connector', { kind: 'sms', environment: 'pre-release' }, 'environment'],
      ['environment of the wrong type', { kind: 'sms', environment: 5 }, 'environment'],
      ['unknown field', { kind: 'sms', environment: 'dev', color: 'red' }, 'color'],
    ])('refuses %s: 400 naming the field', async (_what, partial, field) => {
      const r = await post({ agentId, ...partial });
      expect(errorText(expectEnvelope(r, 400))).toContain(field);
    });

    it('refuses a missing agentId: 400 naming it', async () => {
      const r = await post({ kind: 'sms', environment: 'dev' });
      expect(errorText(expectEnvelope(r, 400))).toContain('agentId');
    });

    it('an unknown agent: 404', async () => {
      expectEnvelope(await post({ agentId: 'PROJECT-nosuchagent', kind: 'sms', environment: 'dev' }), 404);
    });

    it('an agent of another account: 400 naming agentId', async () => {
      const r = await post({ agentId: otherAgentId, kind: 'sms', environment: 'dev' });
      expect(errorText(expectEnvelope(r, 400))).toContain('agentId');
    });

    it('an unknown account: 404', async () => {
      expectEnvelope(await post({ agentId, kind: 'sms', environment: 'dev' }, 'ws-nosuchacct'), 404);
    });

    it('accepts the bare agent id too', async () => {
      const r = await post({ agentId: agentId.replace(/^PROJECT-/, ''), kind: 'sms', environment: 'dev' });
      expect(r.status).toBe(201);
      expect(r.body.agentId).toBe(agentId);
    });
  });

  describe('phone numbers', () => {
    let agentA: string;
    let agentB: string;
    let foreignAgent: string;
    beforeAll(async () => {
      const accountId = await createAccount(t, 'Phones');
      const key = (await operatorKey(t, accountId, { permissions: ['agents'] })).key;
      agentA = await createAgent(t, accountId, key, 'A');
      agentB = await createAgent(t, accountId, key, 'B');
      const other = await createAccount(t, 'Phones other');
      foreignAgent = await createAgent(
        t,
        other,
        (await operatorKey(t, other, { permissions: ['agents'] })).key,
        'Foreign',
      );
    });
    const provision = (agentId: string, body: unknown) =>
      request(`${t.url}/admin/v1/agents/${agentId}/phone-numbers`, { body, headers: op(t) });

    it.each(['dev', 'sandbox', 'live'])('provisions a number for environment %s: 201', async (environment) => {
      const number = `+1555000${({ dev: '1001', sandbox: '1002', live: '1003' } as Record<string, string>)[environment]}`;
      const r = await provision(agentA, { number, environment });
      expect(r.status).toBe(201);
      expect(r.body).toMatchObject({ number, environment });
    });

    it.each([
      ['no plus sign', '15551234567'],
      ['letters', '+1555CALLNOW'],
      ['too short', '+12345'],
      ['too long', '+1234567890123456'],
      ['leading zero country code', '+0551234567'],
      ['spaces', '+1 555 123 4567'],
      ['wrong type', 15551234567],
    ])('refuses a number with %s: 400 naming number', async (_what, number) => {
      const r = await provision(agentA, { number, environment: 'dev' });
      expect(errorText(expectEnvelope(r, 400))).toContain('number');
    });

    it.each(['pre-release', 'prod', '', 'LIVE'])(
      'refuses environment %p: 400 naming environment',
      async (environment) => {
        const r = await provision(agentA, { number: '+15550009999', environment });
        expect(errorText(expectEnvelope(r, 400))).toContain('environment');
      },
    );

    it('refuses unknown fields: 400', async () => {
      const r = await provision(agentA, { number: '+15550009998', environment: 'dev', carrier: 'x' });
      expect(errorText(expectEnvelope(r, 400))).toContain('carrier');
    });

    it('an unknown agent: 404', async () => {
      expectEnvelope(await provision('PROJECT-nosuchagent', { number: '+15550009997', environment: 'dev' }), 404);
    });

    it('repeating the same number for the same agent succeeds again (no change)', async () => {
      expect((await provision(agentA, { number: '+15550002001', environment: 'live' })).status).toBe(201);
      expect((await provision(agentA, { number: '+15550002001', environment: 'live' })).status).toBe(201);
    });

    it('re-provisioning a number of the agent in another environment never answers with an environment that was not stored', async () => {
      expect((await provision(agentA, { number: '+15550005001', environment: 'live' })).status).toBe(201);
      const r = await provision(agentA, { number: '+15550005001', environment: 'dev' });
      const row = await t.app
        .get(ReadModels)
        .source('accounts')
        .getRepository(PhoneNumberRow)
        .findOneBy({ number: '+15550005001' });
      if (r.status === 201) {
        // accepted: the answer must describe what is now provisioned
        expect(r.body.environment).toBe(row?.environment);
      } else {
        expect([400, 409]).toContain(r.status);
        expect(row?.environment).toBe('live');
      }
    });

    it('the same number for another agent of the account is rejected', async () => {
      expect((await provision(agentA, { number: '+15550003001', environment: 'live' })).status).toBe(201);
      const r = await provision(agentB, { number: '+15550003001', environment: 'live' });
      expect([400, 409]).toContain(r.status);
      expectEnvelope(r, r.status, 'PHONE_NUMBER_TAKEN');
    });

    it('concurrent requests for one number: exactly one agent gets it (same account)', async () => {
      for (let i = 0; i < 5; i++) {
        const number = `+1555600${1000 + i}`;
        const rs = await Promise.all([agentA, agentB].map((agent) => provision(agent, { number, environment: 'dev' })));
        expect(rs.map((r) => r.status).filter((s) => s === 201)).toHaveLength(1);
      }
    });

    it('concurrent requests for one number: exactly one agent gets it (agents of two accounts)', async () => {
      for (let i = 0; i < 5; i++) {
        const number = `+1555700${1000 + i}`;
        const rs = await Promise.all(
          [agentA, foreignAgent].map((agent) => provision(agent, { number, environment: 'dev' })),
        );
        expect({ number, created: rs.map((r) => r.status).filter((s) => s === 201).length }).toEqual({
          number,
          created: 1,
        });
      }
    });

    it('the same number for an agent of another account is rejected', async () => {
      expect((await provision(agentA, { number: '+15550004001', environment: 'dev' })).status).toBe(201);
      const r = await provision(foreignAgent, { number: '+15550004001', environment: 'dev' });
      expect([400, 409]).toContain(r.status);
      expectEnvelope(r, r.status, 'PHONE_NUMBER_TAKEN');
    });
  });

  describe('agent settings', () => {
    let agentId: string;
    beforeAll(async () => {
      const accountId = await createAccount(t, 'Settings');
      agentId = await createAgent(t, accountId, (await operatorKey(t, accountId, { permissions: ['agents'] })).key);
    });
    const put = (id: string, body: unknown) =>
      request(`${t.url}/admin/v1/agents/${id}/settings`, { method: 'PUT', body, headers: op(t) });

    it.each([true, false])('PUT {chunked_streaming: %p}: 200', async (value) => {
      const r = await put(agentId, { chunked_streaming: value });
      expect(r.status).toBe(200);
      expect(r.body).toMatchObject({ chunked_streaming: value });
    });

    it.each([
      ['missing', {}],
      ['a string', { chunked_streaming: 'yes' }],
      ['a number', { chunked_streaming: 1 }],
      ['with an unknown field', { chunked_streaming: true, turbo: true }],
    ])('refuses chunked_streaming %s: 400', async (_what, body) => {
      const r = await put(agentId, body);
      const envelope = expectEnvelope(r, 400);
      expect(errorText(envelope)).toMatch(/chunked_streaming|turbo/);
    });

    it('an unknown agent: 404', async () => {
      expectEnvelope(await put('PROJECT-nosuchagent', { chunked_streaming: true }), 404);
    });

    it('a malformed agent id: 400', async () => {
      expectEnvelope(await put('PROJECT-', { chunked_streaming: true }), 400);
    });
  });
});
