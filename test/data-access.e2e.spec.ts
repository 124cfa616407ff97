import { expectEnvelope, request, startTestApp, type TestApp } from './helpers/test-app';
import { createAccount, createAgent, errorText, op, operatorKey, withKey } from './helpers/keys-fixtures';
import type { Json } from './helpers/json';

/** Contract §4: data access per project, GET/PUT /v1/accounts/{accountId}/agents/{agentId}/data-access. */
describe('data access configuration (contract §4)', () => {
  let t: TestApp;
  let accountId: string;
  let admin: Json;
  let agentA: string;
  let agentB: string;
  let foreignAccountId: string;
  let foreignAgent: string;
  const url = (agent: string, account = accountId) => `${t.url}/v1/accounts/${account}/agents/${agent}/data-access`;
  const put = (agent: string, body: unknown, headers: Record<string, string> = withKey(admin.key)) =>
    request(url(agent), { method: 'PUT', body, headers });

  beforeAll(async () => {
    t = await startTestApp();
    accountId = await createAccount(t, 'Data Co');
    admin = await operatorKey(t, accountId);
    agentA = await createAgent(t, accountId, admin.key, 'A');
    agentB = await createAgent(t, accountId, admin.key, 'B');
    foreignAccountId = await createAccount(t, 'Foreign Data Co');
    foreignAgent = await createAgent(t, foreignAccountId, (await operatorKey(t, foreignAccountId)).key, 'Foreign');
  });
  afterAll(async () => t.close());

  it('defaults: no metric enabled, show_transcripts false', async () => {
    const fresh = await createAgent(t, accountId, admin.key, 'Fresh');
    const r = await request(url(fresh), { headers: withKey(admin.key) });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ response_metrics: [], show_transcripts: false });
  });

  it('PUT then GET returns what was set', async () => {
    const body = { response_metrics: ['CALL_COMPLETED', 'HANDOFF_REASON'], show_transcripts: true };
    const p = await put(agentA, body);
    expect(p.status).toBe(200);
    expect(p.body).toMatchObject(body);
    const g = await request(url(agentA), { headers: withKey(admin.key) });
    expect(g.status).toBe(200);
    expect(g.body).toMatchObject(body);
  });

  it('accepts all four built-in metrics and custom metric names', async () => {
    const body = {
      response_metrics: [
        'CALL_IN_PROGRESS',
        'CALL_COMPLETED',
        'HANDOFF_REASON',
        'HANDOFF_TO',
        'refund_amount',
        'nps.score',
      ],
      show_transcripts: false,
    };
    expect((await put(agentB, body)).status).toBe(200);
    const g = await request(url(agentB), { headers: withKey(admin.key) });
    expect([...g.body.response_metrics].sort()).toEqual([...body.response_metrics].sort());
    expect(g.body.show_transcripts).toBe(false);
  });

  it('a PUT replaces the whole configuration; turning everything off works', async () => {
    await put(agentA, { response_metrics: ['HANDOFF_TO'], show_transcripts: true });
    expect((await put(agentA, { response_metrics: [], show_transcripts: false })).status).toBe(200);
    const g = await request(url(agentA), { headers: withKey(admin.key) });
    expect(g.body).toMatchObject({ response_metrics: [], show_transcripts: false });
  });

  it('the configuration is per project: configuring one agent leaves the others alone', async () => {
    const one = await createAgent(t, accountId, admin.key, 'One');
    const two = await createAgent(t, accountId, admin.key, 'Two');
    await put(one, { response_metrics: ['CALL_COMPLETED'], show_transcripts: true });
    const g = await request(url(two), { headers: withKey(admin.key) });
    expect(g.body).toMatchObject({ response_metrics: [], show_transcripts: false });
  });

  it('accepts prefixed and bare ids in the path', async () => {
    const bareAccount = accountId.replace(/^ws-/, '');
    const bareAgent = agentA.replace(/^PROJECT-/, '');
    for (const u of [url(bareAgent), url(agentA, bareAccount), url(bareAgent, `ACCOUNT-${bareAccount}`)]) {
      expect((await request(u, { headers: withKey(admin.key) })).status).toBe(200);
    }
  });

  it('the operator may read and write it too', async () => {
    expect((await request(url(agentB), { headers: op(t) })).status).toBe(200);
    expect((await put(agentB, { response_metrics: ['HANDOFF_TO'], show_transcripts: true }, op(t))).status).toBe(200);
    expect((await request(url(agentB), { headers: withKey(admin.key) })).body).toMatchObject({
      response_metrics: ['HANDOFF_TO'],
      show_transcripts: true,
    });
  });

  describe.each([
    ['missing show_transcripts', { response_metrics: [] }, 'show_transcripts'],
    ['show_transcripts as a string', { response_metrics: [], show_transcripts: 'true' }, 'show_transcripts'],
    ['show_transcripts as a number', { response_metrics: [], show_transcripts: 1 }, 'show_transcripts'],
    ['missing response_metrics', { show_transcripts: true }, 'response_metrics'],
    ['response_metrics not a list', { response_metrics: 'CALL_COMPLETED', show_transcripts: true }, 'response_metrics'],
    ['a non-string metric', { response_metrics: [42], show_transcripts: true }, 'response_metrics'],
    ['an empty metric name', { response_metrics: [''], show_transcripts: true }, 'response_metrics'],
    ['an unknown field', { response_metrics: [], show_transcripts: true, share_everything: true }, 'share_everything'],
  ])('a body with %s', (_what, body, field) => {
    it('answers 400 naming the field and changes nothing', async () => {
      await put(agentB, { response_metrics: ['CALL_COMPLETED'], show_transcripts: true });
      const r = await put(agentB, body);
      expect(errorText(expectEnvelope(r, 400))).toContain(field);
      expect((await request(url(agentB), { headers: withKey(admin.key) })).body).toMatchObject({
        response_metrics: ['CALL_COMPLETED'],
        show_transcripts: true,
      });
    });
  });

  it('malformed JSON: 400', async () => {
    expectEnvelope(
      await request(url(agentA), {
        method: 'PUT',
        rawBody: '{"response_metrics": [',
        headers: { ...withKey(admin.key), 'content-type': 'application/json' },
      }),
      400,
      'INVALID_JSON',
    );
  });

  it('an unknown agent: 404', async () => {
    expectEnvelope(await request(url('PROJECT-nosuchagent'), { headers: withKey(admin.key) }), 404);
    expectEnvelope(await request(url('PROJECT-nosuchagent'), { headers: op(t) }), 404);
  });

  it("an agent of another account under this account's path: 403 or 404, and it is not changed", async () => {
    const r = await request(url(foreignAgent), { headers: withKey(admin.key) });
    expect([403, 404]).toContain(r.status);
    expectEnvelope(r, r.status);
    const p = await put(foreignAgent, { response_metrics: ['CALL_COMPLETED'], show_transcripts: true });
    expect([403, 404]).toContain(p.status);
    // the operator, too, must name the agent's own account
    expectEnvelope(await request(url(foreignAgent), { headers: op(t) }), 404);
    const own = await request(url(foreignAgent, foreignAccountId), { headers: op(t) });
    expect(own.body).toMatchObject({ response_metrics: [], show_transcripts: false });
  });

  it('a key scoped to agent A: 200 on A, 403 on B', async () => {
    const scoped = await operatorKey(t, accountId, { agents: [agentA], permissions: ['agents'] });
    expect((await request(url(agentA), { headers: withKey(scoped.key) })).status).toBe(200);
    expectEnvelope(await request(url(agentB), { headers: withKey(scoped.key) }), 403);
    expectEnvelope(await put(agentB, { response_metrics: [], show_transcripts: true }, withKey(scoped.key)), 403);
  });

  it('no key: 401; unknown key: 401', async () => {
    expectEnvelope(await request(url(agentA)), 401);
    expectEnvelope(await request(url(agentA), { headers: withKey('sk_thisisnotakeythisisnotakeythisisnotake') }), 401);
  });
});
