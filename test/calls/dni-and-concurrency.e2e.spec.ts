import { advanceClock } from '../helpers/keys-fixtures';
import { oneYearAhead } from '../helpers/agents-fixture';
import { expectEnvelope, request, startTestApp, type TestApp } from '../helpers/test-app';
import { callAccount, inboundCall, op, provision, type CallAccount } from './calls-fixture';

describe('DNI reservations and the concurrency series (contract §17, §18)', () => {
  let t: TestApp;
  let acme: CallAccount;

  beforeAll(async () => {
    t = await startTestApp({ PARLEY_TEST_CLOCK: '1' });
    acme = await callAccount(t, 'Acme', '+15550100001');
    await provision(t, acme.agentId, '+15550100101', 'dev', 'dni');
  });
  afterAll(async () => t.close());

  const reserve = (body: unknown, key = acme.key) =>
    request(`${t.url}/v1/conversations/dni-reservation`, { headers: { 'x-api-key': key }, body });
  const series = (query: string, key = acme.key) =>
    request(`${t.url}/v1/${acme.accountId}/${acme.agentId}/conversations/concurrency?${query}`, {
      headers: { 'x-api-key': key },
    });

  it('reserve, call the number, read the handoff state by shared_id', async () => {
    const r = await reserve({ attributes: { shared_id: 'visit-1', page: '/pricing' }, client_env: 'sandbox' });
    expect(r.status).toBe(201);
    expect(r.body).toEqual({ dni: '+15550100101', expires_at: expect.any(String) });
    const call = await inboundCall(t, { from: '+15557654321', to: r.body.dni, utterances: ['speak to a human'] });
    expect(call.body.status).toBe('ended');
    const c = await request(
      `${t.url}/v3/${acme.accountId}/${acme.agentId}/conversations/${call.body.call_sid}?include_context_state=true`,
      { headers: { 'x-api-key': acme.key } },
    );
    expect(c.body.state.dni).toEqual({ shared_id: 'visit-1', page: '/pricing' });
    const handoff = await request(`${t.url}/v1/${acme.accountId}/${acme.agentId}/handoff_state?shared_id=visit-1`, {
      headers: { 'x-api-key': acme.key },
    });
    expect(handoff.status).toBe(200);
    expect(handoff.body).toMatchObject({ id: call.body.call_sid, shared_id: 'visit-1' });
  });

  it('one reservation per number: racing requests for the last number, exactly one wins; 503 until it expires', async () => {
    await advanceClock(t, 901); // the first test's reservation expires
    const answers = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        reserve({ attributes: { shared_id: `race-${i}` }, client_env: 'sandbox', ttl_s: 120 }),
      ),
    );
    expect(answers.filter((a) => a.status === 201)).toHaveLength(1);
    const refused = answers.filter((a) => a.status !== 201);
    expect(refused).toHaveLength(11);
    for (const a of refused) {
      expectEnvelope(a, 503, 'DNI_POOL_EXHAUSTED');
      expect(Number(a.headers.get('retry-after'))).toBe(120);
    }
    await advanceClock(t, 60);
    const still = await reserve({ attributes: {}, client_env: 'sandbox' });
    expectEnvelope(still, 503, 'DNI_POOL_EXHAUSTED');
    expect(Number(still.headers.get('retry-after'))).toBe(60);
    await advanceClock(t, 61);
    expect((await reserve({ attributes: {}, client_env: 'sandbox' })).status).toBe(201);
    // a pool with no numbers in live
    expectEnvelope(await reserve({ attributes: {} }), 503, 'DNI_POOL_EXHAUSTED');
  });

  it('reservation refusals: 400 naming the field, 403 without dni, 400 for a key reaching two agents', async () => {
    for (const [body, field] of [
      [{}, 'attributes'],
      [{ attributes: 'x' }, 'attributes'],
      [{ attributes: [1] }, 'attributes'],
      [{ attributes: { big: 'x'.repeat(17 * 1024) } }, 'attributes'],
      [{ attributes: {}, ttl_s: 59 }, 'ttl_s'],
      [{ attributes: {}, ttl_s: 86401 }, 'ttl_s'],
      [{ attributes: {}, ttl_s: 1.5 }, 'ttl_s'],
      [{ attributes: {}, client_env: 'prod' }, 'client_env'],
    ] as const) {
      expect(expectEnvelope(await reserve(body), 400).error_message).toContain(field);
    }
    const key = async (permissions: string[]) =>
      (
        await request(`${t.url}/admin/v1/accounts/${acme.accountId}/api-keys`, {
          headers: op(t),
          body: { name: 'k', agents: 'all', permissions, expiresAt: oneYearAhead() },
        })
      ).body.key as string;
    expectEnvelope(await reserve({ attributes: {} }, await key(['conversations'])), 403);
    expectEnvelope(await reserve({ attributes: {} }, 'sk_nope'), 401);
    await acme.agents.createAgent('Second agent');
    expectEnvelope(await reserve({ attributes: {} }, await key(['dni'])), 400, 'DNI_AGENT_AMBIGUOUS');
  });

  it('the series: every 5-minute interval, filters, slices, and 400s naming the field', async () => {
    // an hour past the earlier tests' calls, so the window below holds only this test's call
    const now = Date.parse(
      (await request(`${t.url}/admin/v1/clock/advance`, { headers: op(t), body: { seconds: 3600 } })).body.now,
    );
    await inboundCall(t, { from: '+15557654321', to: acme.number, utterances: [] });
    const start = new Date(now - 20 * 60_000).toISOString();
    const end = new Date(now + 7 * 60_000).toISOString();
    const all = await series(`start_time=${start}&end_time=${end}&client_env=sandbox`);
    expect(all.status).toBe(200);
    expect(all.body.account_id).toBe(acme.accountId);
    expect(all.body.project_id).toBe(acme.agentId);
    const times = all.body.intervals.map((i: { time: string }) => Date.parse(i.time));
    expect(times[0] % 300_000).toBe(0);
    expect(times.length).toBeGreaterThanOrEqual(6);
    expect(times.every((time: number, i: number) => i === 0 || time - times[i - 1] === 300_000)).toBe(true);
    const bucket = all.body.intervals.find(
      (i: { time: string }) => Date.parse(i.time) === Math.floor(now / 300_000) * 300_000,
    );
    expect(bucket.max_concurrent_conversations).toBeGreaterThanOrEqual(1);
    expect(all.body.intervals[0].max_concurrent_conversations).toBe(0);

    const byNumber = await series(`start_time=${start}&end_time=${end}&client_env=sandbox&slice_by=phone_number`);
    expect(byNumber.body.intervals).toContainEqual(
      expect.objectContaining({ phone_number: acme.number, max_concurrent_conversations: 1 }),
    );
    const byLanguage = await series(
      `start_time=${start}&end_time=${end}&client_env=sandbox&slice_by=language&channel=VOICE-SIP&channel=SMS`,
    );
    expect(byLanguage.body.intervals[0]).toMatchObject({ language: 'en-GB' });
    const filtered = await series(`start_time=${start}&end_time=${end}&client_env=sandbox&phone_number=%2B15550000000`);
    expect(
      filtered.body.intervals.every(
        (i: { max_concurrent_conversations: number }) => i.max_concurrent_conversations === 0,
      ),
    ).toBe(true);
    expect(
      (await series(`start_time=${start}&end_time=${end}`)).body.intervals.every(
        (i: { max_concurrent_conversations: number }) => i.max_concurrent_conversations === 0,
      ),
    ).toBe(true);

    for (const [query, field] of [
      [`end_time=${end}`, 'start_time'],
      [`start_time=${start}`, 'end_time'],
      [`start_time=yesterday&end_time=${end}`, 'start_time'],
      [`start_time=${end}&end_time=${start}`, 'end_time'],
      [`start_time=2026-01-01T00:00:00Z&end_time=2026-01-08T00:00:01Z`, 'end_time'],
      [`start_time=${start}&end_time=${end}&variant_id=a&variant_name=b`, 'variant_name'],
      [`start_time=${start}&end_time=${end}&slice_by=colour`, 'slice_by'],
      [`start_time=${start}&end_time=${end}&channel=FAX`, 'channel'],
      [`start_time=${start}&end_time=${end}&client_env=prod`, 'client_env'],
      [`start_time=${start}&end_time=${end}&bogus=1`, 'bogus'],
    ]) {
      expect(expectEnvelope(await series(query), 400).error_message).toContain(field);
    }
    const noPermission = (
      await request(`${t.url}/admin/v1/accounts/${acme.accountId}/api-keys`, {
        headers: op(t),
        body: { name: 'k', agents: 'all', permissions: ['handoff'], expiresAt: oneYearAhead() },
      })
    ).body.key;
    expectEnvelope(await series(`start_time=${start}&end_time=${end}`, noPermission), 403);
  });
});
