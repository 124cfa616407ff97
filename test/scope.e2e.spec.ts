import { createAccount, createAgent, operatorKey, withKey } from './helpers/keys-fixtures';
import { expectEnvelope, request, startTestApp, type JsonResponse, type TestApp } from './helpers/test-app';

/**
 * Issue 30, finding 7: a key's agent scope reaches account-level resources too. Alert rules only
 * on agents the key reaches (account-wide rules need `agents: "all"`, contract §12); webhook
 * endpoints, which hear every agent, need `agents: "all"`; header values never come back.
 */
const rule = (extra: Record<string, unknown> = {}) => ({
  name: 'Slow',
  metric: 'turn_latency_p95',
  operator: '>',
  threshold_value: 1000,
  window_duration: '5m',
  ...extra,
});

describe('agent scope on alert rules and webhook endpoints', () => {
  let t: TestApp;
  let admin: string;
  let scoped: string;
  let a1: string;
  let a2: string;

  const as = (key: string, method: string, path: string, body?: unknown): Promise<JsonResponse> =>
    request(`${t.url}${path}`, { method, body, headers: withKey(key) });
  const forbidden = (r: JsonResponse) => expectEnvelope(r, 403, 'AGENT_FORBIDDEN');

  beforeAll(async () => {
    t = await startTestApp();
    const accountId = await createAccount(t, 'Scoped Co');
    admin = (await operatorKey(t, accountId, { name: 'admin' })).key;
    a1 = await createAgent(t, accountId, admin, 'Agent one');
    a2 = await createAgent(t, accountId, admin, 'Agent two');
    scoped = (await operatorKey(t, accountId, { name: 'A1 only', agents: [a1], permissions: ['alerts', 'agents'] }))
      .key;
  });

  afterAll(async () => {
    await t?.close();
  });

  it('a key scoped to A1 cannot create a rule on A2, nor an account-wide one', async () => {
    forbidden(await as(scoped, 'POST', '/v1/alert-rules', rule({ project_id: a2 })));
    forbidden(await as(scoped, 'POST', '/v1/alert-rules', rule({ project_id: null })));
    forbidden(await as(scoped, 'POST', '/v1/alert-rules', rule()));
    const mine = await as(scoped, 'POST', '/v1/alert-rules', rule({ project_id: a1 }));
    expect(mine.status).toBe(201);
    expect(mine.body.project_id).toBe(a1);
    // nothing else was created
    const all = (await as(admin, 'GET', '/v1/alert-rules')).body.data;
    expect(all.map((r: { id: string }) => r.id)).toEqual([mine.body.id]);
  });

  it('rules outside the scope are neither listed, read, changed nor deleted', async () => {
    const onA2 = (await as(admin, 'POST', '/v1/alert-rules', rule({ name: 'A2 rule', project_id: a2 }))).body;
    const wide = (await as(admin, 'POST', '/v1/alert-rules', rule({ name: 'Account rule' }))).body;
    const onA1 = (await as(admin, 'POST', '/v1/alert-rules', rule({ name: 'A1 rule', project_id: a1 }))).body;
    expect([onA2.id, wide.id, onA1.id].every((id) => /^ar_/.test(id))).toBe(true);

    const listed = (await as(scoped, 'GET', '/v1/alert-rules')).body.data.map((r: { id: string }) => r.id);
    expect(listed).toContain(onA1.id);
    expect(listed).not.toContain(onA2.id);
    expect(listed).not.toContain(wide.id);
    forbidden(await as(scoped, 'GET', `/v1/alert-rules?project_id=${a2}`));
    expect(
      (await as(scoped, 'GET', `/v1/alert-rules?project_id=${a1}`)).body.data.map((r: { id: string }) => r.id),
    ).toContain(onA1.id);
    expect((await as(scoped, 'GET', '/v1/alerts')).status).toBe(200);

    for (const target of [onA2, wide]) {
      forbidden(await as(scoped, 'GET', `/v1/alert-rules/${target.id}`));
      forbidden(await as(scoped, 'PATCH', `/v1/alert-rules/${target.id}`, { threshold_value: 1 }));
      forbidden(await as(scoped, 'DELETE', `/v1/alert-rules/${target.id}`));
    }
    // its own rule cannot be moved out of its scope
    forbidden(await as(scoped, 'PATCH', `/v1/alert-rules/${onA1.id}`, { project_id: a2 }));
    forbidden(await as(scoped, 'PATCH', `/v1/alert-rules/${onA1.id}`, { project_id: null }));
    expect((await as(scoped, 'PATCH', `/v1/alert-rules/${onA1.id}`, { threshold_value: 7 })).body.threshold_value).toBe(
      7,
    );

    // untouched, as the all-agents key sees them
    expect((await as(admin, 'GET', `/v1/alert-rules/${onA2.id}`)).body).toMatchObject({
      project_id: a2,
      threshold_value: 1000,
    });
    expect((await as(admin, 'GET', `/v1/alert-rules/${wide.id}`)).body).toMatchObject({
      project_id: null,
      threshold_value: 1000,
    });
    expect((await as(admin, 'GET', `/v1/alert-rules/${onA1.id}`)).body).toMatchObject({ project_id: a1 });
  });

  it('webhook endpoints need a key scoped to all agents, on every route', async () => {
    const created = await as(admin, 'POST', '/v1/webhook-endpoints', {
      url: 'https://hooks.example.com/in',
      event_types: ['handoff.created'],
    });
    expect(created.status).toBe(201);
    const id = created.body.id as string;
    for (const [method, path, body] of [
      ['GET', '', undefined],
      ['POST', '', { url: 'https://hooks.example.com/x', event_types: ['handoff.created'] }],
      ['GET', `/${id}`, undefined],
      ['PATCH', `/${id}`, { name: 'mine now' }],
      ['DELETE', `/${id}`, undefined],
      ['POST', `/${id}/rotate-secret`, undefined],
      ['GET', `/${id}/deliveries`, undefined],
    ] as Array<[string, string, unknown]>) {
      forbidden(await as(scoped, method, `/v1/webhook-endpoints${path}`, body));
    }
    expect((await as(admin, 'GET', `/v1/webhook-endpoints/${id}`)).body.name).toBe('hooks.example.com');
    expect((await as(admin, 'GET', '/v1/webhook-endpoints')).body.data).toHaveLength(1);
  });

  it('header values are write-only: masked in every answer', async () => {
    const token = 'Bearer receiver-token-4f3e2d1c';
    const created = await as(admin, 'POST', '/v1/webhook-endpoints', {
      url: 'https://crm.example.com/in',
      event_types: ['handoff.created'],
      headers: { Authorization: token, 'X-Team': 'support' },
    });
    expect(created.status).toBe(201);
    const masked = { Authorization: '***', 'X-Team': '***' };
    expect(created.body.headers).toEqual(masked);
    const answers = [
      created,
      await as(admin, 'GET', `/v1/webhook-endpoints/${created.body.id}`),
      await as(admin, 'GET', '/v1/webhook-endpoints'),
      await as(admin, 'PATCH', `/v1/webhook-endpoints/${created.body.id}`, { name: 'CRM' }),
    ];
    for (const answer of answers) expect(JSON.stringify(answer.body)).not.toContain('receiver-token');
    expect(answers[1].body.headers).toEqual(masked);
    expect(answers[3].body.headers).toEqual(masked);
    // the same headers again change nothing; new ones replace them, still masked
    const replaced = await as(admin, 'PATCH', `/v1/webhook-endpoints/${created.body.id}`, {
      headers: { 'X-Other': 'v' },
    });
    expect(replaced.body.headers).toEqual({ 'X-Other': '***' });
  });
});
