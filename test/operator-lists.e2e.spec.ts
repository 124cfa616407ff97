import { expectEnvelope, request, startTestApp, type TestApp } from './helpers/test-app';
import { createAccount, createAgent, op, operatorKey, withKey } from './helpers/keys-fixtures';
import type { Json } from './helpers/json';

const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/** The operator's lists of connectors (per account) and phone numbers (per agent). */
describe('operator lists: connectors and phone numbers', () => {
  let t: TestApp;
  let accountId: string;
  let otherAccountId: string;
  let agentId: string;
  let otherAgentId: string;
  let dniKey: string;

  beforeAll(async () => {
    t = await startTestApp();
    accountId = await createAccount(t, 'Lists');
    otherAccountId = await createAccount(t, 'Lists elsewhere');
    const key = (await operatorKey(t, accountId, { permissions: ['agents'] })).key;
    const otherKey = (await operatorKey(t, otherAccountId, { permissions: ['agents'] })).key;
    agentId = await createAgent(t, accountId, key);
    otherAgentId = await createAgent(t, otherAccountId, otherKey);
    dniKey = (await operatorKey(t, accountId, { agents: [agentId], permissions: ['dni'] })).key;
  });
  afterAll(async () => t.close());

  const connectors = (account: string, headers: Record<string, string> = op(t)) =>
    request(`${t.url}/admin/v1/accounts/${account}/connectors`, { headers });
  const numbers = (agent: string, headers: Record<string, string> = op(t)) =>
    request(`${t.url}/admin/v1/agents/${agent}/phone-numbers`, { headers });
  const createConnector = async (account: string, body: Json) => {
    const r = await request(`${t.url}/admin/v1/accounts/${account}/connectors`, { body, headers: op(t) });
    expect(r.status).toBe(201);
    return r.body;
  };
  const provision = async (agent: string, body: Json) => {
    const r = await request(`${t.url}/admin/v1/agents/${agent}/phone-numbers`, { body, headers: op(t) });
    expect(r.status).toBe(201);
    return r.body;
  };

  it("lists an account's connectors as created, oldest first, without the token or secret", async () => {
    expect((await connectors(accountId)).body).toEqual({ connectors: [] });
    const messaging = await createConnector(accountId, {
      agentId,
      kind: 'messaging',
      environment: 'live',
      hostDomain: 'Shop.Example.com',
    });
    const sms = await createConnector(accountId, { agentId, kind: 'sms', environment: 'dev' });
    await createConnector(otherAccountId, { agentId: otherAgentId, kind: 'sms', environment: 'dev' });

    const r = await connectors(accountId);
    expect(r.status).toBe(200);
    const { connectorToken, ...messagingView } = messaging;
    const { webhookSecret, ...smsView } = sms;
    expect(connectorToken).toMatch(/^ct_/);
    expect(typeof webhookSecret).toBe('string');
    expect(r.body).toEqual({ connectors: [messagingView, smsView] });
    expect(r.body.connectors[0]).toMatchObject({
      accountId,
      agentId,
      kind: 'messaging',
      hostDomain: 'shop.example.com',
    });
    expect(r.body.connectors[0].createdAt).toMatch(ISO_MS);
    const text = JSON.stringify(r.body);
    expect(text).not.toContain(connectorToken);
    expect(text).not.toContain(webhookSecret);
    expect(text).not.toMatch(/token|secret|digest|sealed/i);
  });

  it('the bare account id lists the same connectors', async () => {
    const prefixed = await connectors(accountId);
    const bare = await connectors(accountId.replace(/^ws-/, ''));
    expect(bare.status).toBe(200);
    expect(bare.body).toEqual(prefixed.body);
  });

  it("lists an agent's numbers in every environment, DNI numbers with their reservation", async () => {
    expect((await numbers(agentId)).body).toEqual({ phoneNumbers: [] });
    await provision(agentId, { number: '+15550100002', environment: 'live' });
    await provision(agentId, { number: '+15550100001', environment: 'dev', pool: 'dni' });
    await provision(agentId, { number: '+15550100003', environment: 'dev' });
    await provision(otherAgentId, { number: '+15550100009', environment: 'dev' });

    const before = await numbers(agentId);
    expect(before.status).toBe(200);
    expect(before.body.phoneNumbers.map((n: Json) => [n.environment, n.number, n.pool])).toEqual([
      ['dev', '+15550100001', 'dni'],
      ['dev', '+15550100003', 'main'],
      ['live', '+15550100002', 'main'],
    ]);
    const [dni, main] = before.body.phoneNumbers;
    expect(dni).toMatchObject({ agentId, reserved: false, reservedUntil: null });
    expect(dni.provisionedAt).toMatch(ISO_MS);
    expect(main).not.toHaveProperty('reserved');

    // a dev number serves the sandbox deployment, so its DNI pool is the sandbox pool (contract §18)
    const reservation = await request(`${t.url}/v1/conversations/dni-reservation`, {
      body: { attributes: { page: '/pricing' }, client_env: 'sandbox' },
      headers: withKey(dniKey),
    });
    expect(reservation.status).toBe(201);
    expect(reservation.body.dni).toBe('+15550100001');

    const after = await numbers(agentId);
    expect(after.body.phoneNumbers[0]).toMatchObject({
      number: '+15550100001',
      reserved: true,
      reservedUntil: reservation.body.expires_at,
    });
    // the visitor's attributes are the reservation's business, not the operator list's
    expect(JSON.stringify(after.body)).not.toContain('/pricing');
  });

  it('a number moved out of the DNI pool is listed as a main number', async () => {
    await provision(agentId, { number: '+15550100004', environment: 'dev', pool: 'dni' });
    const r = await request(`${t.url}/admin/v1/agents/${agentId}/phone-numbers`, {
      body: { number: '+15550100004', environment: 'dev', pool: 'main' },
      headers: op(t),
    });
    expect([200, 201]).toContain(r.status);
    const listed = (await numbers(agentId)).body.phoneNumbers.find((n: Json) => n.number === '+15550100004');
    expect(listed).toEqual(expect.objectContaining({ pool: 'main', environment: 'dev' }));
    expect(listed).not.toHaveProperty('reserved');
  });

  it('an unknown account or agent: 404 in the envelope', async () => {
    expectEnvelope(await connectors('ws-nosuchaccount'), 404, 'ACCOUNT_NOT_FOUND');
    expectEnvelope(await numbers('PROJECT-nosuchagent'), 404, 'AGENT_NOT_FOUND');
  });

  it('a malformed id: 400 in the envelope, never a 500', async () => {
    expectEnvelope(await connectors('ws-'), 400, 'INVALID_ACCOUNT_ID');
    expectEnvelope(await connectors(encodeURIComponent('a b')), 400, 'INVALID_ACCOUNT_ID');
    expectEnvelope(await numbers('PROJECT-'), 400);
    expectEnvelope(await numbers(encodeURIComponent('PROJECT-../../x')), 400);
  });

  it('refuses an API key, a wrong operator token and no credential: 401', async () => {
    const key = (await operatorKey(t, accountId)).key;
    const refused: Array<Record<string, string>> = [
      withKey(key),
      { 'x-operator-token': key },
      { 'x-operator-token': 'wrong' },
      {},
    ];
    for (const headers of refused) {
      expectEnvelope(await connectors(accountId, headers), 401);
      expectEnvelope(await numbers(agentId, headers), 401);
    }
  });
});
