import { request, startTestApp, type TestApp } from './helpers/test-app';

/** GET /metrics (issue 8): Prometheus text, behind the operator token unless METRICS_PUBLIC=1. */
describe('operational metrics', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp();
  });

  afterAll(async () => t?.close());

  const scrape = async (headers: Record<string, string> = { 'x-operator-token': t.operatorToken }) => {
    const response = await fetch(`${t.url}/metrics`, { headers });
    return { status: response.status, type: response.headers.get('content-type'), text: await response.text() };
  };

  it('needs the operator token', async () => {
    const r = await scrape({});
    expect(r.status).toBe(401);
    expect(JSON.parse(r.text)).toMatchObject({ success: false, error_code: 'OPERATOR_TOKEN_INVALID' });
    expect((await scrape({ 'x-operator-token': 'wrong-token-0123456789' })).status).toBe(401);
  });

  it('serves Prometheus text with requests by route template and status, appends, commits and projection lag', async () => {
    // some traffic: an account (an append), a 404 and a 401
    const op = { 'x-operator-token': t.operatorToken };
    expect(
      (await request(`${t.url}/admin/v1/accounts`, { body: { name: 'Metrics Co', region: 'us' }, headers: op })).status,
    ).toBe(201);
    await request(`${t.url}/admin/v1/accounts/ws-nosuchaccount`, { headers: op });
    await request(`${t.url}/v1/accounts/ws-x/agents`);
    const r = await scrape();
    expect(r.status).toBe(200);
    expect(r.type).toMatch(/^text\/plain/);
    expect(r.text).toMatch(/parley_http_requests_total\{route="\/admin\/v1\/accounts",method="POST",status="201"\} 1/);
    // an unmatched path is one series, whatever the path
    expect(r.text).toMatch(/parley_http_requests_total\{route="unmatched",method="GET",status="404"\} 1/);
    expect(r.text).toMatch(
      /parley_http_requests_total\{route="\/v1\/accounts\/:accountId\/agents",method="GET",status="401"\} 1/,
    );
    expect(r.text).toMatch(/parley_event_store_append_duration_seconds_count [1-9]/);
    expect(r.text).toMatch(/parley_event_store_group_commit_appends_count [1-9]/);
    for (const projection of ['accounts', 'api-keys', 'agents', 'conversations', 'alerts', 'alert-samples']) {
      expect(r.text).toMatch(new RegExp(`parley_projection_lag_events\\{projection="${projection}"\\} \\d+`));
    }
    for (const manager of [
      'external-events',
      'outbound-calls',
      'sms-sessions',
      'messaging-session-timers',
      'messaging-delayed-responses',
      'webhook-events',
    ]) {
      expect(r.text).toMatch(new RegExp(`parley_process_manager_lag_events\\{process_manager="${manager}"\\} \\d+`));
    }
    expect(r.text).toContain('# TYPE parley_alert_evaluation_rounds_total counter');
    expect(r.text).toContain('parley_process_cpu_seconds_total');
    // raw ids never become label values
    expect(r.text).not.toContain('nosuchaccount');
  });

  it('counts alert evaluation rounds', async () => {
    const op = { 'x-operator-token': t.operatorToken };
    expect((await request(`${t.url}/admin/v1/alerts/evaluate`, { method: 'POST', body: {}, headers: op })).status).toBe(
      200,
    );
    expect((await scrape()).text).toMatch(/parley_alert_evaluation_rounds_total [1-9]/);
  });
});

describe('operational metrics with METRICS_PUBLIC=1', () => {
  it('needs no token', async () => {
    const t = await startTestApp({ METRICS_PUBLIC: '1' });
    try {
      const response = await fetch(`${t.url}/metrics`);
      expect(response.status).toBe(200);
      expect(await response.text()).toContain('parley_http_requests_total');
    } finally {
      await t.close();
    }
  });
});
