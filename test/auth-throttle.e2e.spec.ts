import { deskHandshake, from } from './helpers/from-address';
import { expectEnvelope, startTestApp, type JsonResponse, type TestApp } from './helpers/test-app';
import { createAccount, createAgent, operatorKey } from './helpers/keys-fixtures';
import { createConnector } from './messaging/messaging-fixture';

function expectThrottled(r: JsonResponse) {
  expectEnvelope(r, 429, 'AUTH_FAILURES_THROTTLED');
  const retryAfter = r.headers.get('retry-after');
  expect(retryAfter).toMatch(/^\d+$/);
  expect(Number(retryAfter)).toBeGreaterThanOrEqual(1);
}

/** Issue 30, finding 8: failed logins slowed per client address (AUTH_FAILURE_RATE, AUTH_FAILURE_BURST). */
describe('failed authentication throttled per client address', () => {
  const BURST = 3;
  let t: TestApp;
  let accountId: string;
  let key: string;
  let connectorToken: string;
  let accessToken: string;
  let nextAddress = 10;
  /** A loopback address no request of this file has used yet: a client of its own. */
  const freshAddress = () => `127.0.0.${nextAddress++}`;

  beforeAll(async () => {
    // one failure back every 20 s: nothing refills within a test on any machine
    t = await startTestApp({ AUTH_FAILURE_RATE: '0.05', AUTH_FAILURE_BURST: String(BURST) });
    accountId = await createAccount(t, 'Throttled');
    key = (await operatorKey(t, accountId)).key;
    const agentId = await createAgent(t, accountId, key);
    connectorToken = (await createConnector(t, accountId, agentId, 'sandbox', 'example.com')).connectorToken;
    const issued = await from('127.0.0.1', `${t.url}/api/v1/access-token`, {
      method: 'POST',
      headers: { 'X-Token': connectorToken, 'X-Host': 'example.com' },
    });
    expect(issued.status).toBe(200);
    accessToken = issued.body.access_token;
  });
  afterAll(async () => t.close());

  type Call = (address: string, right: boolean) => Promise<JsonResponse>;
  const styles: Array<[string, () => Call]> = [
    [
      'x-api-key',
      () => (address, right) =>
        from(address, `${t.url}/v1/accounts/${accountId}/agents`, {
          headers: { 'x-api-key': right ? key : 'sk_wrongwrongwrongwrongwrongwrongwrongwrong' },
        }),
    ],
    [
      'X-Service-Auth-Token',
      () => (address, right) =>
        from(address, `${t.url}/v1/outbound-sms`, {
          body: {},
          headers: { 'X-Service-Auth-Token': right ? key : 'sk_wrongwrongwrongwrongwrongwrongwrongwrong' },
        }),
    ],
    [
      'operator token',
      () => (address, right) =>
        from(address, `${t.url}/admin/v1/accounts`, {
          headers: { 'x-operator-token': right ? t.operatorToken : 'not-the-operator-token-0000' },
        }),
    ],
    [
      'operator token on a key route',
      () => (address, right) =>
        from(address, `${t.url}/v1/accounts/${accountId}/api-keys`, {
          headers: { 'x-operator-token': right ? t.operatorToken : 'not-the-operator-token-0000' },
        }),
    ],
    [
      'messaging X-Token',
      () => (address, right) =>
        from(address, `${t.url}/api/v1/access-token`, {
          method: 'POST',
          headers: { 'X-Token': right ? connectorToken : 'ct_wrongwrongwrong', 'X-Host': 'example.com' },
        }),
    ],
    [
      'messaging bearer',
      () => (address, right) =>
        from(address, `${t.url}/api/v1/sessions`, {
          body: {},
          headers: { authorization: `Bearer ${right ? accessToken : 'eyJhbGciOiJIUzI1NiJ9.e30.wrong'}` },
        }),
    ],
    [
      'desk ?api_key= handshake',
      () => (address, right) => deskHandshake(t, address, right ? key : 'sk_wrongwrongwrongwrongwrongwrongwrongwrong'),
    ],
  ];

  /** Authentication passed: whatever the route then says, it is not 401 or 429. */
  const expectAuthenticated = (r: JsonResponse) => expect([401, 429]).not.toContain(r.status);

  describe.each(styles)('%s', (_name, make) => {
    it(`${BURST} refusals from one address, then 429 with Retry-After for that address only`, async () => {
      const call = make();
      const attacker = freshAddress();
      for (let i = 0; i < BURST; i++) expectEnvelope(await call(attacker, false), 401);
      expectThrottled(await call(attacker, false));
      // refused before the credential is looked at: a right guess would otherwise end the slowing
      expectThrottled(await call(attacker, true));
      // another address is not affected, failing or not
      const neighbour = freshAddress();
      expectAuthenticated(await call(neighbour, true));
      expectEnvelope(await call(neighbour, false), 401);
    });
  });

  it('successful requests spend nothing: many of them, then the full burst of failures is still allowed', async () => {
    const call = styles[0][1]();
    const client = freshAddress();
    for (let i = 0; i < 30; i++) expect((await call(client, true)).status).toBe(200);
    for (let i = 0; i < BURST; i++) expectEnvelope(await call(client, false), 401);
    expectThrottled(await call(client, false));
  });

  it('a request with no credential at all is not a guess: it never throttles the address', async () => {
    const client = freshAddress();
    for (let i = 0; i < BURST * 3; i++)
      expectEnvelope(await from(client, `${t.url}/v1/accounts/${accountId}/agents`), 401, 'API_KEY_MISSING');
    expect(
      (await from(client, `${t.url}/v1/accounts/${accountId}/agents`, { headers: { 'x-api-key': key } })).status,
    ).toBe(200);
  });

  it('failures on one credential style count for the address on every other', async () => {
    const client = freshAddress();
    for (let i = 0; i < BURST; i++) expectEnvelope(await styles[2][1]()(client, false), 401);
    expectThrottled(await styles[0][1]()(client, true));
    expectThrottled(await styles[6][1]()(client, true));
  });
});
