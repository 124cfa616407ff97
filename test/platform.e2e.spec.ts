/**
 * @jest-environment <rootDir>/test/support/onnx-environment.ts
 */
import { expectEnvelope, request, startTestApp, type TestApp, UUID } from './helpers/test-app';

describe('platform (over HTTP)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ PARLEY_TEST_CLOCK: '1' });
  });
  afterAll(async () => t.close());
  const op = () => ({ 'x-operator-token': t.operatorToken });

  it('GET /healthz answers while the process is up', async () => {
    const r = await request(`${t.url}/healthz`);
    expect(r).toMatchObject({ status: 200, body: { status: 'ok' } });
  });

  it('GET /readyz shows the store and every projection with its position and lag', async () => {
    const r = await request(`${t.url}/readyz`);
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ status: 'ready', eventStore: { status: 'open' } });
    // which voice activity detector calls get: the Silero model ships with the install
    expect(r.body.voice).toEqual({ vad: 'silero' });
    expect(Array.isArray(r.body.projections)).toBe(true);
    for (const p of r.body.projections)
      expect(p).toMatchObject({ state: 'serving', lagEvents: expect.any(Number), position: expect.any(String) });
  });

  it('GET /readyz lists every process manager with its position, lag and error', async () => {
    const r = await request(`${t.url}/readyz`);
    const names = r.body.processManagers.map((m: { name: string }) => m.name);
    expect(names).toEqual(
      expect.arrayContaining([
        'external-events',
        'outbound-calls',
        'sms-sessions',
        'messaging-session-timers',
        'messaging-delayed-responses',
        'webhook-events',
      ]),
    );
    for (const m of r.body.processManagers)
      expect(m).toEqual({
        name: expect.any(String),
        active: true,
        position: expect.any(String),
        lagEvents: expect.any(Number),
        error: null,
        health: 'ok',
        deadLetters: 0,
      });
  });

  it('echoes a sane X-Correlation-Id and makes one up otherwise', async () => {
    const given = await request(`${t.url}/healthz`, { headers: { 'x-correlation-id': 'abc-123' } });
    expect(given.headers.get('x-correlation-id')).toBe('abc-123');
    const made = await request(`${t.url}/healthz`, { headers: { 'x-correlation-id': 'has spaces and <script>' } });
    expect(made.headers.get('x-correlation-id')).toMatch(UUID);
  });

  it('answers an unknown route with the envelope and the correlation id as error_id', async () => {
    const r = await request(`${t.url}/no/such/route`, { headers: { 'x-correlation-id': 'corr-404' } });
    const body = expectEnvelope(r, 404, 'NOT_FOUND');
    expect(body.error_id).toBe('corr-404');
    expect(body.data).toBeNull();
  });

  describe('the test clock route', () => {
    it('needs the operator token', async () => {
      expectEnvelope(
        await request(`${t.url}/admin/v1/clock/advance`, { body: { seconds: 1 } }),
        401,
        'OPERATOR_TOKEN_INVALID',
      );
      expectEnvelope(
        await request(`${t.url}/admin/v1/clock/advance`, {
          body: { seconds: 1 },
          headers: { 'x-operator-token': 'wrong' },
        }),
        401,
      );
    });

    it('moves the platform clock forward', async () => {
      const a = await request(`${t.url}/admin/v1/clock/advance`, { body: { seconds: 0 }, headers: op() });
      const b = await request(`${t.url}/admin/v1/clock/advance`, { body: { seconds: 3600 }, headers: op() });
      expect(a.status).toBe(200);
      expect(Date.parse(b.body.now) - Date.parse(a.body.now)).toBe(3600_000);
    });

    it.each([
      [{ seconds: -1 }, 'seconds'],
      [{ seconds: 'ten' }, 'seconds'],
      [{}, 'seconds'],
      [{ seconds: 1, extra: true }, 'extra'],
    ])('refuses %p with 400 naming the field', async (body, field) => {
      const r = await request(`${t.url}/admin/v1/clock/advance`, { body, headers: op() });
      const envelope = expectEnvelope(r, 400, 'VALIDATION_ERROR');
      expect(envelope.error_message).toContain(field);
    });
  });

  describe('bad input never becomes a 500', () => {
    it('malformed JSON: 400 INVALID_JSON', async () => {
      const r = await request(`${t.url}/admin/v1/clock/advance`, {
        rawBody: '{"seconds":',
        headers: { ...op(), 'content-type': 'application/json' },
      });
      expectEnvelope(r, 400, 'INVALID_JSON');
    });

    it('a body over 1 MiB: 413', async () => {
      const r = await request(`${t.url}/admin/v1/clock/advance`, {
        rawBody: JSON.stringify({ seconds: 1, pad: 'x'.repeat(1024 * 1024) }),
        headers: { ...op(), 'content-type': 'application/json' },
      });
      expectEnvelope(r, 413, 'PAYLOAD_TOO_LARGE');
    });

    it('an unsupported content type: 415', async () => {
      const r = await request(`${t.url}/admin/v1/clock/advance`, {
        rawBody: '<x/>',
        headers: { ...op(), 'content-type': 'application/x-unknown' },
      });
      expectEnvelope(r, 415);
    });
  });

  describe('Idempotency-Key', () => {
    it('replays the first response for a repeat with the same body and changes nothing', async () => {
      const headers = { ...op(), 'idempotency-key': `k-${Date.now()}` };
      const first = await request(`${t.url}/admin/v1/clock/advance`, { body: { seconds: 60 }, headers });
      const again = await request(`${t.url}/admin/v1/clock/advance`, { body: { seconds: 60 }, headers });
      expect(again.status).toBe(first.status);
      expect(again.body).toEqual(first.body);
      expect(again.headers.get('idempotent-replayed')).toBe('true');
      const now = await request(`${t.url}/admin/v1/clock/advance`, { body: { seconds: 0 }, headers: op() });
      expect(now.body.now).toBe(first.body.now);
    });

    it('answers 409 for the same key with a different body', async () => {
      const headers = { ...op(), 'idempotency-key': `k2-${Date.now()}` };
      await request(`${t.url}/admin/v1/clock/advance`, { body: { seconds: 1 }, headers });
      expectEnvelope(
        await request(`${t.url}/admin/v1/clock/advance`, { body: { seconds: 2 }, headers }),
        409,
        'IDEMPOTENCY_KEY_REUSED',
      );
    });

    it('frees the key when the request failed, so a corrected retry can use it', async () => {
      const headers = { ...op(), 'idempotency-key': `k3-${Date.now()}` };
      expectEnvelope(await request(`${t.url}/admin/v1/clock/advance`, { body: { seconds: -5 }, headers }), 400);
      expect((await request(`${t.url}/admin/v1/clock/advance`, { body: { seconds: -5 }, headers })).status).toBe(400);
    });

    it('expires after 24 hours on the platform clock', async () => {
      const headers = { ...op(), 'idempotency-key': `k4-${Date.now()}` };
      await request(`${t.url}/admin/v1/clock/advance`, { body: { seconds: 5 }, headers });
      await request(`${t.url}/admin/v1/clock/advance`, { body: { seconds: 24 * 3600 }, headers: op() });
      const later = await request(`${t.url}/admin/v1/clock/advance`, { body: { seconds: 5 }, headers });
      expect(later.headers.get('idempotent-replayed')).toBeNull();
    });

    it('rejects a malformed key', async () => {
      expectEnvelope(
        await request(`${t.url}/admin/v1/clock/advance`, {
          body: { seconds: 1 },
          headers: { ...op(), 'idempotency-key': 'x'.repeat(300) },
        }),
        400,
        'INVALID_IDEMPOTENCY_KEY',
      );
    });
  });
});

describe('platform without the test clock', () => {
  it('has no clock route at all', async () => {
    const t = await startTestApp();
    try {
      const r = await request(`${t.url}/admin/v1/clock/advance`, {
        body: { seconds: 1 },
        headers: { 'x-operator-token': t.operatorToken },
      });
      expectEnvelope(r, 404, 'NOT_FOUND');
    } finally {
      await t.close();
    }
  });
});
