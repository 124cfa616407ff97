import {
  advanceClock,
  buildAgent,
  issueKey,
  converse,
  startConversationsFixture,
  type ConversationsFixture,
} from './helpers/conversations-fixture';
import { request, type JsonResponse } from './helpers/test-app';

/**
 * Alert evaluation (contract §12) over HTTP on the test clock: samples from real conversations,
 * rounds on POST /admin/v1/alerts/evaluate and on the ALERT_EVAL_INTERVAL_S timer, transitions
 * ok -> alert -> ok and -> no_data, GET /v1/alerts.
 */
describe('Alert evaluation', () => {
  let f: ConversationsFixture;
  let agentId: string;

  const call = (method: string, path: string, body?: unknown): Promise<JsonResponse> =>
    request(`${f.t.url}${path}`, { method, body, headers: { 'x-api-key': f.adminKey } });
  const evaluate = async () => {
    const r = await request(`${f.t.url}/admin/v1/alerts/evaluate`, {
      method: 'POST',
      body: {},
      headers: { 'x-operator-token': f.t.operatorToken },
    });
    expect(r.status).toBe(200);
    return r.body;
  };
  const rule = async (id: string) => (await call('GET', `/v1/alert-rules/${id}`)).body;
  const create = async (body: Record<string, unknown>) => {
    const r = await call('POST', '/v1/alert-rules', {
      name: 'r',
      project_id: agentId,
      operator: '>=',
      window_duration: '5m',
      ...body,
    });
    expect(r.status).toBe(201);
    return r.body.id as string;
  };

  beforeAll(async () => {
    f = await startConversationsFixture('Alerting Co', { ALERT_EVAL_INTERVAL_S: '60' });
    agentId = await buildAgent(f, 'Watched', 'Hello', [
      { name: 'Hours', content: 'We open at nine.', queries: ['when do you open'] },
      { name: 'Broken', content: 'Let me check.', queries: ['check my order status'], actions: 'no_such_function' },
    ]);
  }, 180_000);

  afterAll(async () => f?.close());

  afterEach(async () => {
    for (const r of (await call('GET', '/v1/alert-rules')).body.data ?? [])
      await call('DELETE', `/v1/alert-rules/${r.id}`);
  });

  it('no calls in the window: no_data; calls at the threshold: alert; the window moves on: no_data again', async () => {
    const volume = await create({ metric: 'call_volume', threshold_value: 2 });
    expect((await rule(volume)).current_state).toBe('ok');
    let round = await evaluate();
    expect(round.transitions).toEqual(
      expect.arrayContaining([{ alert_rule_id: volume, from: 'ok', to: 'no_data', current_value: null }]),
    );
    await converse(f, agentId, ['when do you open']);
    await converse(f, agentId, ['when do you open']);
    await advanceClock(f.t, 1);
    round = await evaluate();
    const fired = await rule(volume);
    expect(fired).toMatchObject({
      current_state: 'alert',
      current_value: 2,
      since: round.evaluated_at,
      last_evaluated_at: round.evaluated_at,
    });
    const alerts = (await call('GET', '/v1/alerts')).body.data as Array<Record<string, unknown>>;
    expect(alerts).toEqual([
      {
        alert_rule_id: volume,
        name: 'r',
        project_id: agentId,
        metric: 'call_volume',
        operator: '>=',
        threshold_value: 2,
        window_duration: '5m',
        since: round.evaluated_at,
        last_evaluated_at: round.evaluated_at,
        current_value: 2,
      },
    ]);
    await advanceClock(f.t, 6 * 60);
    await evaluate();
    expect((await rule(volume)).current_state).toBe('no_data');
    expect((await call('GET', '/v1/alerts')).body.data).toEqual([]);
  });

  it('alert -> ok when the metric falls back under the threshold; counts are absolute in the window', async () => {
    const errors = await create({ metric: 'function_errors', threshold_value: 2, window_duration: '10m' });
    await converse(f, agentId, ['check my order status', 'check my order status']);
    await advanceClock(f.t, 1);
    await evaluate();
    expect(await rule(errors)).toMatchObject({ current_state: 'alert', current_value: 2 });
    await advanceClock(f.t, 11 * 60);
    await converse(f, agentId, ['when do you open']);
    await advanceClock(f.t, 1);
    await evaluate();
    expect(await rule(errors)).toMatchObject({ current_state: 'ok', current_value: 0 });
  });

  it('latency percentiles are exact over the turns of the window', async () => {
    const p50 = await create({ metric: 'turn_latency_p50', operator: '>', threshold_value: 60_000 });
    const p95 = await create({ metric: 'turn_latency_p95', operator: '<', threshold_value: 60_000 });
    await converse(f, agentId, ['when do you open', 'when do you open']);
    await advanceClock(f.t, 1);
    await evaluate();
    const a = await rule(p50);
    const b = await rule(p95);
    expect(a.current_state).toBe('ok');
    expect(b.current_state).toBe('alert');
    expect(typeof a.current_value).toBe('number');
    expect(a.current_value).toBeGreaterThanOrEqual(0);
  });

  it('disabled rules are not evaluated; a whole-account rule counts every project', async () => {
    const disabled = await create({ metric: 'call_volume', threshold_value: 1, enabled: false });
    const account = await create({ metric: 'call_volume', threshold_value: 1, project_id: null });
    await converse(f, agentId, ['when do you open']);
    await advanceClock(f.t, 1);
    await evaluate();
    expect(await rule(disabled)).toMatchObject({ current_state: 'ok', last_evaluated_at: null });
    expect(await rule(account)).toMatchObject({ current_state: 'alert', project_id: null });
  });

  it('rounds run by themselves every ALERT_EVAL_INTERVAL_S on the platform clock', async () => {
    const volume = await create({ metric: 'call_volume', threshold_value: 1 });
    await converse(f, agentId, ['when do you open']);
    await advanceClock(f.t, 61);
    const after = await rule(volume);
    expect(after.current_state).toBe('alert');
    expect(after.last_evaluated_at).not.toBeNull();
  });

  it('the window is (now - window, now]: with the clock frozen, two debug chats then a round fire call_volume >= 1', async () => {
    await advanceClock(f.t, 61 * 60); // earlier tests' samples leave every window
    const volume = await create({ metric: 'call_volume', threshold_value: 1 });
    await converse(f, agentId, ['when do you open']);
    await converse(f, agentId, ['when do you open']);
    const round = await evaluate();
    expect(await rule(volume)).toMatchObject({
      current_state: 'alert',
      current_value: 2,
      since: round.evaluated_at,
    });
  });

  it('GET /v1/alerts filters on project_id, metric and enabled; a key sees and writes only rules of its agents', async () => {
    await advanceClock(f.t, 61 * 60);
    const other = await buildAgent(f, 'Other watched', 'Hi', [
      { name: 'Hours', content: 'We open at ten.', queries: ['when do you open'] },
    ]);
    const mine = await create({ metric: 'call_volume', threshold_value: 1 });
    const account = await create({ metric: 'call_volume', threshold_value: 1, project_id: null });
    const theirs = await create({ metric: 'call_volume', threshold_value: 1, project_id: other });
    await create({ metric: 'call_volume', threshold_value: 1, enabled: false });
    await create({ metric: 'turn_latency_p50', threshold_value: 100000 });
    await converse(f, agentId, ['when do you open']);
    await converse(f, other, ['when do you open']);
    await evaluate();
    const firing = async (query = '', key = f.adminKey) => {
      const r = await request(`${f.t.url}/v1/alerts${query}`, { headers: { 'x-api-key': key } });
      expect(r.status).toBe(200);
      return (r.body.data as Array<{ alert_rule_id: string }>).map((a) => a.alert_rule_id).sort();
    };
    expect(await firing()).toEqual([mine, account, theirs].sort());
    expect(await firing(`?project_id=${agentId}`)).toEqual([mine]);
    expect(await firing(`?project_id=${other}`)).toEqual([theirs]);
    expect(await firing('?metric=call_volume')).toEqual([mine, account, theirs].sort());
    expect(await firing('?metric=turn_latency_p50')).toEqual([]);
    expect(await firing('?enabled=true')).toEqual([mine, account, theirs].sort());
    expect(await firing('?enabled=false')).toEqual([]);
    expect((await call('GET', '/v1/alerts?metric=bogus')).status).toBe(400);
    expect((await call('GET', '/v1/alerts?enabled=maybe')).status).toBe(400);

    const scoped = await issueKey(f, { agents: [other], permissions: ['alerts'] });
    expect(await firing('', scoped)).toEqual([theirs]);
    const asScoped = (method: string, path: string, body?: unknown) =>
      request(`${f.t.url}${path}`, { method, body, headers: { 'x-api-key': scoped } });
    expect((await asScoped('GET', `/v1/alerts?project_id=${agentId}`)).status).toBe(403);
    expect((await asScoped('GET', `/v1/alert-rules/${mine}`)).status).toBe(403);
    expect((await asScoped('PATCH', `/v1/alert-rules/${mine}`, { name: 'mine now' })).status).toBe(403);
    expect((await asScoped('DELETE', `/v1/alert-rules/${account}`)).status).toBe(403);
    expect((await asScoped('PATCH', `/v1/alert-rules/${theirs}`, { project_id: agentId })).status).toBe(403);
    expect((await rule(mine)).name).toBe('r');
  });
});
