import { AgentsClient, createAccount, expectOk } from './helpers/agents-fixture';
import { operatorKey } from './helpers/keys-fixtures';
import { rawHttp, type RawResponse } from './helpers/raw-http';
import { expectEnvelope, request, startTestApp, type TestApp } from './helpers/test-app';

/**
 * Issue 30, "validation at the door, once": null where optional means absent, nesting limits on
 * every body parser, messages that name the real problem, and the envelope for every answer,
 * Fastify's and Node's own refusals included.
 */
describe('validation at the door', () => {
  let t: TestApp;
  let client: AgentsClient;
  let agentId: string;
  let branchId: string;
  let topicId: string;
  let ruleId: string;
  let serviceKey: string;
  let eventsKey: string;
  let handoffKey: string;

  const nested = (depth: number) => '['.repeat(depth) + ']'.repeat(depth);
  const call = (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) =>
    client.call(method, path, body, headers);
  const raw = (
    method: string,
    path: string,
    rawBody: string,
    contentType: string,
    headers: Record<string, string> = {},
  ) =>
    request(`${t.url}${path}`, {
      method,
      rawBody,
      headers: { 'x-api-key': client.account.key, 'content-type': contentType, ...headers },
    });

  async function expectReady() {
    const r = await request(`${t.url}/readyz`);
    expect({ status: r.status, body: r.body }).toMatchObject({ status: 200 });
  }

  /** The envelope as a raw socket read it (the correlation header names the same id). */
  function expectRawEnvelope(r: RawResponse, status: number, code: string) {
    expect({ status: r.status, code: r.body?.error_code }).toEqual({ status, code });
    expect(r.body).toMatchObject({ success: false, data: null });
    expect(r.body.error_message).toBe(r.body.error);
    expect(r.headers['x-correlation-id']).toBe(r.body.error_id);
  }

  beforeAll(async () => {
    t = await startTestApp();
    const account = await createAccount(t, 'Door Co', ['agents', 'keys', 'alerts']);
    client = new AgentsClient(t, account);
    agentId = (await client.createAgent('Guarded')).agentId;
    branchId = (await client.createBranch(agentId, 'edits')).branchId;
    topicId = (
      await client.addTopic(agentId, branchId, {
        name: 'Refunds',
        content: 'We refund in 5 days.',
        queries: ['refund'],
        actions: '',
        isActive: true,
      })
    ).id;
    const rule = await call('POST', '/v1/alert-rules', {
      name: 'Slow',
      project_id: agentId,
      metric: 'turn_latency_p95',
      operator: '>=',
      threshold_value: 800,
      window_duration: '5m',
    });
    expectOk(rule, 201);
    ruleId = rule.body.id;
    serviceKey = (await operatorKey(t, account.accountId, { permissions: ['sms', 'outbound_calling'] })).key;
    eventsKey = (await operatorKey(t, account.accountId, { permissions: ['external_events'] })).key;
    handoffKey = (await operatorKey(t, account.accountId, { permissions: ['handoff'] })).key;
  });
  afterAll(async () => t?.close());

  describe('null where optional means absent: 400 naming the field, nothing recorded', () => {
    it('PATCH an API key with name null', async () => {
      const r = await call('PATCH', `/v1/accounts/${client.account.accountId}/api-keys/${client.account.keyId}`, {
        name: null,
      });
      expectEnvelope(r, 400, 'VALIDATION_ERROR');
      expect(r.body.error_message).toBe('name must not be null');
      const key = await call('GET', `/v1/accounts/${client.account.accountId}/api-keys/${client.account.keyId}`);
      expect(key.body.name).toBe('Door Co key');
    });

    it.each(['name', 'content', 'actions', 'isActive'])('PATCH a topic with %s null', async (field) => {
      const r = await call('PATCH', `/v1/agents/${agentId}/branches/${branchId}/knowledge-base/topics/${topicId}`, {
        [field]: null,
      });
      expectEnvelope(r, 400, 'VALIDATION_ERROR');
      expect(r.body.error_message).toBe(`${field} must not be null`);
    });

    it.each(['name', 'metric', 'operator', 'threshold_value', 'window_duration', 'enabled'])(
      'PATCH an alert rule with %s null',
      async (field) => {
        const r = await call('PATCH', `/v1/alert-rules/${ruleId}`, { [field]: null });
        expectEnvelope(r, 400, 'VALIDATION_ERROR');
        expect(r.body.errors).toEqual([{ field, message: `${field} must not be null` }]);
        expect(r.body.message).toBe(`${field} must not be null`);
      },
    );

    it('keeps the documented null: an alert rule with project_id null watches the whole account', async () => {
      const r = await call('PATCH', `/v1/alert-rules/${ruleId}`, { project_id: null });
      expect(r.status).toBe(200);
      expect(r.body.project_id).toBeNull();
    });

    it('refuses null agent_number on outbound SMS and null optional fields on outbound calls with 400, not 500', async () => {
      const headers = { 'x-service-auth-token': serviceKey, 'x-token-id': 'conn_unknown' };
      const sms = await call(
        'POST',
        '/v1/outbound-sms',
        { user_number: '+15551234567', message: 'hi', agent_number: null },
        headers,
      );
      expectEnvelope(sms, 400, 'VALIDATION_ERROR');
      expect(sms.body.detail).toBe('agent_number must not be null');
      for (const field of ['country_code', 'from_number', 'metadata', 'encryption']) {
        const r = await call(
          'POST',
          '/v1/outbound-calling',
          { to_number: '+15551234567', [field]: null },
          { 'x-service-auth-token': serviceKey },
        );
        expectEnvelope(r, 400, 'VALIDATION_ERROR');
        expect(r.body.error_message).toBe(`${field} must not be null`);
      }
    });

    it('leaves every read model ready after the probes', async () => {
      await expectReady();
      const topics = await call('GET', `/v1/agents/${agentId}/branches/${branchId}/knowledge-base/topics`);
      expect(topics.body).toEqual([
        expect.objectContaining({ name: 'Refunds', content: 'We refund in 5 days.', actions: '', isActive: true }),
      ]);
    });
  });

  describe('messages name the real problem', () => {
    it('a missing required field is "required"', async () => {
      const r = await call('POST', `/v1/accounts/${client.account.accountId}/agents`, {
        responseSettings: { greeting: 'Hi' },
      });
      expectEnvelope(r, 400, 'VALIDATION_ERROR');
      expect(r.body.error_message).toBe('name is required');
      expect(r.body.errors).toEqual([{ field: 'name', message: 'name is required' }]);
      const nestedMissing = await call('POST', `/v1/accounts/${client.account.accountId}/agents`, {
        name: 'x',
        responseSettings: {},
      });
      expect(nestedMissing.body.error_message).toBe('responseSettings.greeting is required');
    });

    it('a body sent as text/plain or as a form says the content type is wrong: 415', async () => {
      for (const type of ['text/plain', 'text/plain;charset=UTF-8', 'application/x-www-form-urlencoded']) {
        const body = type.includes('form') ? 'name=x' : '{"name":"x"}';
        const r = await raw('POST', `/v1/accounts/${client.account.accountId}/agents`, body, type);
        expectEnvelope(r, 415, 'UNSUPPORTED_MEDIA_TYPE');
        expect(r.body.error_message).toBe('Content-Type must be application/json');
      }
    });

    it('a body without a Content-Type is 415 too; an empty body of any type is no body', async () => {
      const bare = await rawHttp(
        t.url,
        `POST /admin/v1/accounts HTTP/1.1\r\nHost: localhost\r\nx-operator-token: ${t.operatorToken}\r\nContent-Length: 13\r\nConnection: close\r\n\r\n{"name":"x"}\n`,
      );
      expectRawEnvelope(bare, 415, 'UNSUPPORTED_MEDIA_TYPE');
      const empty = await request(`${t.url}/admin/v1/alerts/evaluate`, {
        method: 'POST',
        rawBody: '',
        headers: { 'x-operator-token': t.operatorToken, 'content-type': 'application/x-www-form-urlencoded' },
      });
      expect(empty.status).toBe(200);
    });

    it('a JSON body that is not an object says so', async () => {
      for (const body of ['"x"', '[{"name":"x"}]', 'null', '7']) {
        const r = await raw('POST', `/v1/accounts/${client.account.accountId}/agents`, body, 'application/json');
        expectEnvelope(r, 400, 'VALIDATION_ERROR');
        expect(r.body.error_message).toBe('the body must be a JSON object');
      }
    });
  });

  describe('hand-parsed query strings: a repeated parameter is a 400 naming it', () => {
    it('on the external-events webhook (once: the first value won)', async () => {
      const q = `event_id_location=payload&event_id_location=headers&event_id_path=id&account_id=${client.account.accountId}&project_id=${agentId}`;
      const r = await request(`${t.url}/v1/external-events/webhook?${q}`, {
        method: 'POST',
        rawBody: '{"id":"e1"}',
        headers: { 'x-api-key': eventsKey, 'content-type': 'application/json' },
      });
      expectEnvelope(r, 400, 'VALIDATION_ERROR');
      expect(r.body.error_message).toBe('query parameter event_id_location is given more than once');
    });

    it('on the handoff state (once: "id or shared_id is required")', async () => {
      const r = await request(`${t.url}/v1/${client.account.accountId}/${agentId}/handoff_state?id=a&id=b`, {
        headers: { 'x-api-key': handoffKey },
      });
      expectEnvelope(r, 400, 'INVALID_PARAMETER');
      expect(r.body.error_message).toBe('query parameter id is given more than once');
    });

    it('on alert rule filters, with unknown values named too', async () => {
      expect((await call('GET', '/v1/alert-rules?enabled=true&enabled=false')).body.errors).toEqual([
        { field: 'enabled', message: 'query parameter enabled is given more than once' },
      ]);
      expect((await call('GET', '/v1/alert-rules?state=melting')).body.errors).toEqual([
        { field: 'state', message: expect.stringContaining('state must be one of') },
      ]);
    });
  });

  describe('nesting deeper than 64 levels: 400 BODY_TOO_DEEP on every parser', () => {
    it('on a JSON route, at 65 and at 3,000 levels (once a 500 from class-transformer)', async () => {
      for (const depth of [65, 3000, 100_000]) {
        const r = await raw(
          'POST',
          `/v1/accounts/${client.account.accountId}/agents`,
          `{"name":"x","responseSettings":{"greeting":"hi"},"extra":${nested(depth - 1)}}`,
          'application/json',
        );
        expectEnvelope(r, 400, 'BODY_TOO_DEEP');
      }
      const within = await raw(
        'POST',
        `/v1/accounts/${client.account.accountId}/agents`,
        `{"name":"x","extra":${nested(63)}}`,
        'application/json',
      );
      expectEnvelope(within, 400, 'VALIDATION_ERROR');
    });

    const webhook = (contentType: string, body: string) => {
      const q = new URLSearchParams({
        event_id_location: 'payload',
        event_id_path: 'id',
        account_id: client.account.accountId,
        project_id: agentId,
      });
      return request(`${t.url}/v1/external-events/webhook?${q}`, {
        method: 'POST',
        rawBody: body,
        headers: { 'x-api-key': eventsKey, 'content-type': contentType },
      });
    };

    it.each([
      ['application/json', `{"id":"e1","v":${nested(10_000)}}`],
      ['application/vnd.acme+json', `{"id":"e1","v":${nested(65)}}`],
      ['application/xml', `<r><id>e1</id>${'<a>'.repeat(10_000)}${'</a>'.repeat(10_000)}</r>`],
      ['text/xml', `<r><id>e1</id>${'<a>'.repeat(65)}${'</a>'.repeat(65)}</r>`],
    ])('on the external-events webhook, %s (once accepted, then a stack overflow in binding)', async (type, body) => {
      expectEnvelope(await webhook(type, body), 400, 'BODY_TOO_DEEP');
    });

    it.each([
      ['application/x-www-form-urlencoded', `id=e1&${'a['.repeat(10_000)}=1&v=${encodeURIComponent(nested(10_000))}`],
      ['text/plain', `id: e1\n${nested(10_000)}`],
    ])('on the webhook, a %s body is flat: brackets in it are data, not nesting', async (type, body) => {
      // past the door: refused only because no conversation awaits the id
      expectEnvelope(await webhook(type, body), 400, 'EXTERNAL_EVENT_UNKNOWN');
    });

    it('on inbound SMS, before the signature is even looked at', async () => {
      const r = await request(`${t.url}/v1/sms/inbound/conn_x`, {
        method: 'POST',
        rawBody: `{"from":${nested(5000)}}`,
        headers: { 'content-type': 'application/json' },
      });
      expectEnvelope(r, 400, 'BODY_TOO_DEEP');
    });

    it('leaves the platform ready', async () => expectReady());
  });

  describe('the envelope for every answer', () => {
    it('a malformed percent-encoding in the path (GET /%)', async () => {
      const r = await rawHttp(t.url, 'GET /% HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n');
      expectRawEnvelope(r, 400, 'INVALID_URL');
    });

    it('oversized headers: 431', async () => {
      const r = await rawHttp(
        t.url,
        `GET /v1/alert-rules HTTP/1.1\r\nHost: localhost\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`,
      );
      expectRawEnvelope(r, 431, 'HEADERS_TOO_LARGE');
    });

    it('refusals before routing still carry the extras of their family (Alerts: message, errors)', async () => {
      const big = await rawHttp(
        t.url,
        `GET /v1/alert-rules HTTP/1.1\r\nHost: localhost\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`,
      );
      expect(big.body).toMatchObject({ message: big.body.error, errors: [] });
      const badUrl = await rawHttp(
        t.url,
        'DELETE /v1/alert-rules/%FF HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n',
      );
      expectRawEnvelope(badUrl, 400, 'INVALID_URL');
      expect(badUrl.body).toMatchObject({ message: badUrl.body.error, errors: [] });
      const sms = await rawHttp(t.url, 'GET /v1/sms/%FF HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n');
      expect(sms.body).toMatchObject({ error_code: 'INVALID_URL', detail: sms.body.error });
    });

    it.each([
      [
        'a Content-Length that is not a number',
        'POST /v1/alert-rules HTTP/1.1\r\nHost: localhost\r\nContent-Length: abc\r\n\r\n{}',
      ],
      [
        'both Content-Length and chunked framing',
        'POST /v1/alert-rules HTTP/1.1\r\nHost: localhost\r\nContent-Length: 2\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n',
      ],
      ['a header line without a colon', 'GET /v1/alert-rules HTTP/1.1\r\nHost localhost\r\n\r\n'],
    ])('malformed framing: %s', async (_what, bytes) => {
      expectRawEnvelope(await rawHttp(t.url, bytes), 400, 'MALFORMED_REQUEST');
    });

    it('a method HTTP does not know', async () => {
      expectRawEnvelope(
        await rawHttp(t.url, 'BREW /v1/alert-rules HTTP/1.1\r\nHost: localhost\r\n\r\n'),
        400,
        'INVALID_METHOD',
      );
    });

    it('a method no route answers, and an unknown route: 404', async () => {
      expectEnvelope(
        await request(`${t.url}/v1/alert-rules`, { method: 'PUT', headers: { 'x-api-key': client.account.key } }),
        404,
        'NOT_FOUND',
      );
      expectEnvelope(await request(`${t.url}/no/such/route`), 404, 'NOT_FOUND');
      const propfind = await rawHttp(
        t.url,
        'PROPFIND /v1/alert-rules HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n',
      );
      expectRawEnvelope(propfind, 404, 'NOT_FOUND');
    });

    it('a body over 1 MiB: 413; malformed JSON: 400', async () => {
      const big = await raw(
        'POST',
        `/v1/accounts/${client.account.accountId}/agents`,
        JSON.stringify({ name: 'x'.repeat(1024 * 1024) }),
        'application/json',
      );
      expectEnvelope(big, 413, 'PAYLOAD_TOO_LARGE');
      const broken = await raw(
        'POST',
        `/v1/accounts/${client.account.accountId}/agents`,
        '{"name":',
        'application/json',
      );
      expectEnvelope(broken, 400, 'INVALID_JSON');
    });
  });
});
