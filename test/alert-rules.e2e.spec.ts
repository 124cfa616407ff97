import { createAccount as createAgentsAccount, AgentsClient } from './helpers/agents-fixture';
import { operatorKey } from './helpers/keys-fixtures';
import { request, startTestApp, type JsonResponse, type TestApp } from './helpers/test-app';

/** Alerts API (interface.md "Alerts API", contract §12): rule CRUD, filters, limits and errors. */
describe('Alert rules API', () => {
  let t: TestApp;
  let key: string;
  let agentId: string;
  let accountId: string;

  const rule = {
    name: 'Slow turns',
    project_id: '',
    metric: 'turn_latency_p95',
    operator: '>=',
    threshold_value: 800,
    window_duration: '5m',
  };

  const call = (method: string, path: string, body?: unknown, k: string | null = key): Promise<JsonResponse> =>
    request(`${t.url}${path}`, { method, body, headers: k === null ? {} : { 'x-api-key': k } });

  /** The Alerts API's error body: the envelope plus `message` and `errors: [{field, message}]`. */
  function expectAlertsError(r: JsonResponse, status: number, field?: string) {
    expect(r.status).toBe(status);
    expect(r.body.success).toBe(false);
    expect(r.body.message).toBe(r.body.error_message);
    expect(Array.isArray(r.body.errors)).toBe(true);
    if (field) expect(r.body.errors.map((e: { field: string }) => e.field)).toContain(field);
  }

  beforeAll(async () => {
    t = await startTestApp();
    const account = await createAgentsAccount(t, 'Alerting Co', ['agents', 'keys', 'alerts']);
    accountId = account.accountId;
    key = account.key;
    agentId = (await new AgentsClient(t, account).createAgent('Watched')).agentId;
    rule.project_id = agentId;
  });

  afterAll(async () => t?.close());

  afterEach(async () => {
    const list = await call('GET', '/v1/alert-rules');
    for (const r of list.body.data ?? []) await call('DELETE', `/v1/alert-rules/${r.id}`);
  });

  it('creates a rule (201) that starts ok, with every field of the rule object', async () => {
    const r = await call('POST', '/v1/alert-rules', rule);
    expect(r.status).toBe(201);
    expect(r.body).toEqual({
      id: expect.stringMatching(/^ar_[a-z0-9]+$/),
      name: 'Slow turns',
      project_id: agentId,
      metric: 'turn_latency_p95',
      operator: '>=',
      threshold_value: 800,
      window_duration: '5m',
      enabled: true,
      current_state: 'ok',
      since: r.body.created_at,
      last_evaluated_at: null,
      current_value: null,
      created_at: expect.stringMatching(/Z$/),
      updated_at: r.body.created_at,
    });
    expect((await call('GET', `/v1/alert-rules/${r.body.id}`)).body).toEqual(r.body);
  });

  it('a rule without project watches the whole account (project_id null)', async () => {
    const r = await call('POST', '/v1/alert-rules', {
      ...rule,
      project_id: null,
      metric: 'call_volume',
      operator: '<',
      threshold_value: 1,
      window_duration: '60m',
      enabled: false,
    });
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({ project_id: null, enabled: false, operator: '<' });
    const bare = await call('POST', '/v1/alert-rules', { ...rule, project_id: agentId.replace(/^PROJECT-/, '') });
    expect(bare.body.project_id).toBe(agentId);
  });

  it('PATCH changes only the given fields; DELETE answers 204 and the rule is gone', async () => {
    const created = (await call('POST', '/v1/alert-rules', rule)).body;
    const patched = await call('PATCH', `/v1/alert-rules/${created.id}`, { threshold_value: 1200, enabled: false });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({
      threshold_value: 1200,
      enabled: false,
      name: 'Slow turns',
      metric: 'turn_latency_p95',
    });
    const deleted = await call('DELETE', `/v1/alert-rules/${created.id}`);
    expect(deleted.status).toBe(204);
    expect((await call('GET', `/v1/alert-rules/${created.id}`)).status).toBe(404);
    expect((await call('PATCH', `/v1/alert-rules/${created.id}`, { enabled: true })).status).toBe(404);
    expect((await call('DELETE', `/v1/alert-rules/${created.id}`)).status).toBe(404);
  });

  it('lists with filters project_id, metric, enabled and state: {data: [...]}', async () => {
    await call('POST', '/v1/alert-rules', rule);
    await call('POST', '/v1/alert-rules', { ...rule, project_id: null, metric: 'api_errors', threshold_value: 10 });
    await call('POST', '/v1/alert-rules', { ...rule, metric: 'api_errors', enabled: false });
    const names = async (query: string) =>
      (await call('GET', `/v1/alert-rules${query}`)).body.data as Array<{
        metric: string;
        enabled: boolean;
        project_id: string | null;
      }>;
    expect(await names('')).toHaveLength(3);
    expect(await names(`?project_id=${agentId}`)).toHaveLength(2);
    expect((await names('?metric=api_errors')).every((r) => r.metric === 'api_errors')).toBe(true);
    expect(await names('?metric=api_errors')).toHaveLength(2);
    expect(await names('?enabled=false')).toHaveLength(1);
    expect(await names('?state=ok')).toHaveLength(3);
    expect(await names('?state=alert')).toHaveLength(0);
    expectAlertsError(await call('GET', '/v1/alert-rules?metric=speed'), 400, 'metric');
    expectAlertsError(await call('GET', '/v1/alert-rules?enabled=maybe'), 400, 'enabled');
    expectAlertsError(await call('GET', '/v1/alert-rules?state=burning'), 400, 'state');
  });

  it('GET /v1/alerts lists only firing rules (none yet)', async () => {
    await call('POST', '/v1/alert-rules', rule);
    const r = await call('GET', '/v1/alerts');
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ data: [] });
  });

  it('10 rules per account: the 11th answers 409; a deleted rule frees its place', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 10; i++) ids.push((await call('POST', '/v1/alert-rules', { ...rule, name: `r${i}` })).body.id);
    expectAlertsError(await call('POST', '/v1/alert-rules', { ...rule, name: 'eleventh' }), 409);
    await call('DELETE', `/v1/alert-rules/${ids[0]}`);
    expect((await call('POST', '/v1/alert-rules', { ...rule, name: 'eleventh' })).status).toBe(201);
  });

  it.each([
    [{ ...rule, threshold_value: -1 }, 'threshold_value'],
    [{ ...rule, threshold_value: 1.5 }, 'threshold_value'],
    [{ ...rule, threshold_value: '10' }, 'threshold_value'],
    [{ ...rule, metric: 'latency' }, 'metric'],
    [{ ...rule, operator: '==' }, 'operator'],
    [{ ...rule, window_duration: '15m' }, 'window_duration'],
    [{ ...rule, name: '' }, 'name'],
    [{ ...rule, enabled: 'yes' }, 'enabled'],
    [{ metric: 'api_errors', operator: '>=', threshold_value: 1, window_duration: '5m' }, 'name'],
    [{ name: 'x', operator: '>=', threshold_value: 1, window_duration: '5m' }, 'metric'],
    [{ name: 'x', metric: 'api_errors', threshold_value: 1, window_duration: '5m' }, 'operator'],
    [{ name: 'x', metric: 'api_errors', operator: '>=', window_duration: '5m' }, 'threshold_value'],
    [{ name: 'x', metric: 'api_errors', operator: '>=', threshold_value: 1 }, 'window_duration'],
    [{ ...rule, colour: 'red' }, 'colour'],
  ])('create refuses %j with 400 naming %s', async (body, field) => {
    expectAlertsError(await call('POST', '/v1/alert-rules', body), 400, field);
  });

  it('PATCH validates the same way', async () => {
    const created = (await call('POST', '/v1/alert-rules', rule)).body;
    expectAlertsError(
      await call('PATCH', `/v1/alert-rules/${created.id}`, { threshold_value: -5 }),
      400,
      'threshold_value',
    );
    expectAlertsError(
      await call('PATCH', `/v1/alert-rules/${created.id}`, { window_duration: '1h' }),
      400,
      'window_duration',
    );
  });

  it('a malformed rule id answers 422; an unknown one 404', async () => {
    for (const method of ['GET', 'PATCH', 'DELETE']) {
      expectAlertsError(
        await call(method, '/v1/alert-rules/not-a-rule', method === 'PATCH' ? { enabled: false } : undefined),
        422,
      );
      expectAlertsError(
        await call(method, '/v1/alert-rules/ar_doesnotexist123', method === 'PATCH' ? { enabled: false } : undefined),
        404,
      );
    }
  });

  it('project_id must be a project of this account: malformed 422, unknown 404', async () => {
    expectAlertsError(await call('POST', '/v1/alert-rules', { ...rule, project_id: 'PROJECT-!!' }), 422, 'project_id');
    expectAlertsError(
      await call('POST', '/v1/alert-rules', { ...rule, project_id: 'PROJECT-nosuchagent' }),
      404,
      'project_id',
    );
  });

  it('needs a key with the alerts permission of this account', async () => {
    expectAlertsError(await call('GET', '/v1/alert-rules', undefined, null), 401);
    const noAlerts = (await operatorKey(t, accountId, { permissions: ['agents'] })).key as string;
    expectAlertsError(await call('GET', '/v1/alert-rules', undefined, noAlerts), 403);
    expectAlertsError(await call('POST', '/v1/alert-rules', rule, noAlerts), 403);
    // another account sees none of these rules
    const created = (await call('POST', '/v1/alert-rules', rule)).body;
    const other = await createAgentsAccount(t, 'Other Co', ['alerts']);
    expect((await call('GET', `/v1/alert-rules/${created.id}`, undefined, other.key)).status).toBe(404);
    expect((await call('GET', '/v1/alert-rules', undefined, other.key)).body).toEqual({ data: [] });
    expectAlertsError(await call('POST', '/v1/alert-rules', rule, other.key), 404, 'project_id');
  });
});
