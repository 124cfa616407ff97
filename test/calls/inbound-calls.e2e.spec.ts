import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expectEnvelope, request, startTestApp, type TestApp } from '../helpers/test-app';
import { callAccount, inboundCall, limits, op, provision, setLimit, type CallAccount } from './calls-fixture';

const IN_SID = /^IN-[0-9a-f-]{36}$/;

describe('inbound calls and the account limit (contract §17, §18)', () => {
  let t: TestApp;
  let acme: CallAccount;
  let globex: CallAccount;
  const env = { PARLEY_TEST_CLOCK: '1', OUTBOUND_MAX_CONCURRENT_CALLS: '40' };
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-calls-'));

  beforeAll(async () => {
    t = await startTestApp(env, dir);
    acme = await callAccount(t, 'Acme', '+15550100001');
    globex = await callAccount(t, 'Globex', '+15550200002');
  });
  afterAll(async () => {
    await t.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const conversation = (account: CallAccount, id: string) =>
    request(`${t.url}/v3/${account.accountId}/${account.agentId}/conversations/${id}?include_context_state=true`, {
      headers: { 'x-api-key': account.key },
    });

  it('a provisioned number answers: greeting, each utterance a user turn, hang-up; readable at once', async () => {
    const r = await inboundCall(t, { from: '+15557654321', to: acme.number, utterances: ['when do you open'] });
    expect(r.status).toBe(201);
    expect(r.body).toEqual({ call_sid: expect.stringMatching(IN_SID), status: 'ended', reason: null });
    const c = await conversation(acme, r.body.call_sid);
    expect(c.status).toBe(200);
    expect(c.body).toMatchObject({ id: r.body.call_sid, channel: 'VOICE-SIP', num_turns: 2 });
    expect(c.body.state).toMatchObject({ caller_number: '+15557654321', agent_number: acme.number });
    const status = await request(`${t.url}/admin/v1/carrier/inbound-calls/${r.body.call_sid}`, { headers: op(t) });
    expect(status.body).toMatchObject({ status: 'ended', from: '+15557654321', to: acme.number });
  });

  it('the agent hanging up (a handoff) ends the call before the rest of the script', async () => {
    const r = await inboundCall(t, {
      from: '+15557654321',
      to: acme.number,
      utterances: ['speak to a human', 'when do you open'],
    });
    expect(r.body.status).toBe('ended');
    const c = await conversation(acme, r.body.call_sid);
    expect(c.body.num_turns).toBe(2);
  });

  it('refusals: unknown number 404, bad bodies 400 naming the field, no operator token 401', async () => {
    expectEnvelope(
      await inboundCall(t, { from: '+15557654321', to: '+15559999999', utterances: [] }),
      404,
      'PHONE_NUMBER_NOT_FOUND',
    );
    for (const [body, field] of [
      [{ to: acme.number, utterances: [] }, 'from'],
      [{ from: '12', to: acme.number, utterances: [] }, 'from'],
      [{ from: '+15557654321', to: acme.number }, 'utterances'],
      [{ from: '+15557654321', to: acme.number, utterances: 'hi' }, 'utterances'],
      [{ from: '+15557654321', to: acme.number, utterances: [1] }, 'utterances'],
      [{ from: '+15557654321', to: acme.number, utterances: [], hang_up: 'yes' }, 'hang_up'],
    ] as const) {
      const body400 = expectEnvelope(await inboundCall(t, body), 400);
      expect(body400.error_message).toContain(field);
    }
    const noToken = await request(`${t.url}/admin/v1/carrier/inbound-calls`, {
      body: { from: '+15557654321', to: acme.number, utterances: [] },
    });
    expectEnvelope(noToken, 401);
    expectEnvelope(
      await request(`${t.url}/admin/v1/carrier/inbound-calls/IN-nope/hang-up`, { method: 'POST', headers: op(t) }),
      404,
      'CALL_NOT_FOUND',
    );
  });

  it('the limit holds inbound and outbound calls alike, and in_progress survives a restart', async () => {
    expect((await limits(t, globex.accountId, globex.key)).body).toEqual({ concurrent_calls: 40, in_progress: 0 });
    expect((await setLimit(t, globex.accountId, { concurrent_calls: 1 })).body).toEqual({
      concurrent_calls: 1,
      in_progress: 0,
    });
    const held = await inboundCall(t, { from: '+15557654321', to: globex.number, utterances: [], hang_up: false });
    expect(held.body.status).toBe('in-progress');
    expect((await limits(t, globex.accountId, globex.key)).body).toEqual({ concurrent_calls: 1, in_progress: 1 });

    const refused = await inboundCall(t, { from: '+15557654321', to: globex.number, utterances: ['hello?'] });
    expect(refused.body).toMatchObject({ status: 'failed', reason: 'concurrent-call-limit' });
    // its call_sid was handed out: a conversation at once, started and ended with no turn (contract §2)
    const unconnected = await conversation(globex, refused.body.call_sid);
    expect(unconnected.status).toBe(200);
    expect(unconnected.body).toMatchObject({ channel: 'VOICE-SIP', num_turns: 0, in_progress: false, turns: [] });
    expect(unconnected.body.state).toMatchObject({
      call_status: 'failed',
      failure_reason: 'concurrent-call-limit',
      caller_number: '+15557654321',
      agent_number: globex.number,
    });
    const outbound = await request(`${t.url}/v1/outbound-calling`, {
      headers: { 'X-Service-Auth-Token': globex.key },
      body: { to_number: '+15551234567' },
    });
    expectEnvelope(outbound, 429, 'CONCURRENT_CALL_LIMIT');
    expect(Number(outbound.headers.get('retry-after'))).toBeGreaterThan(0);
    // another account's calls are not held by this one's limit
    expect((await limits(t, acme.accountId, acme.key)).body.in_progress).toBe(0);

    // the same data directory, a new process: the held line is still held
    await t.close();
    t = await startTestApp(env, dir);
    expect((await limits(t, globex.accountId, globex.key)).body).toEqual({ concurrent_calls: 1, in_progress: 1 });
    const hungUp = await request(`${t.url}/admin/v1/carrier/inbound-calls/${held.body.call_sid}/hang-up`, {
      method: 'POST',
      headers: op(t),
    });
    expect(hungUp.body).toMatchObject({ call_sid: held.body.call_sid, status: 'ended' });
    expect((await limits(t, globex.accountId, globex.key)).body).toEqual({ concurrent_calls: 1, in_progress: 0 });
  });

  it('a number whose environment has no deployment: failed, and still a conversation readable at once', async () => {
    await provision(t, acme.agentId, '+15550100777', 'live');
    const r = await inboundCall(t, { from: '+15557654321', to: '+15550100777', utterances: ['anyone there?'] });
    expect(r.status).toBe(201);
    expect(r.body).toEqual({ call_sid: expect.stringMatching(IN_SID), status: 'failed', reason: 'no-deployment' });
    const c = await conversation(acme, r.body.call_sid);
    expect(c.status).toBe(200);
    expect(c.body).toMatchObject({ environment: 'live', num_turns: 0, in_progress: false, turns: [] });
    expect(c.body.state).toMatchObject({ call_status: 'failed', failure_reason: 'no-deployment' });
    const events = await request(
      `${t.url}/v3/${acme.accountId}/${acme.agentId}/conversations/${r.body.call_sid}/events`,
      {
        headers: { 'x-api-key': acme.key },
      },
    );
    // post-call analysis may follow the end (behind the log)
    expect(events.body.events.find((e: { type: string }) => e.type === 'ConversationEnded')).toMatchObject({
      data: { reason: 'not_connected' },
    });
  });

  it('limits: 400 on bad bodies, 404 for an unknown account, 401/403 for keys', async () => {
    expectEnvelope(await setLimit(t, globex.accountId, { concurrent_calls: -1 }), 400);
    expectEnvelope(await setLimit(t, globex.accountId, { concurrent_calls: 'ten' }), 400);
    expectEnvelope(await setLimit(t, globex.accountId, {}), 400);
    expectEnvelope(await setLimit(t, 'ws-nobody00', { concurrent_calls: 3 }), 404, 'ACCOUNT_NOT_FOUND');
    expectEnvelope(await limits(t, globex.accountId, acme.key), 403);
    expectEnvelope(await limits(t, globex.accountId, 'sk_wrong'), 401);
    expectEnvelope(
      await request(`${t.url}/admin/v1/accounts/${globex.accountId}/limits`, {
        method: 'PUT',
        body: { concurrent_calls: 3 },
      }),
      401,
    );
  });

  it('30 calls at once: every one ends, none lost, in_progress back to 0', async () => {
    await setLimit(t, acme.accountId, { concurrent_calls: 30 });
    const answers = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        inboundCall(t, {
          from: `+1555700${String(i).padStart(4, '0')}`,
          to: acme.number,
          utterances: ['when do you open'],
        }),
      ),
    );
    expect(answers.map((a) => `${a.status} ${a.body.status}`)).toEqual(Array(30).fill('201 ended'));
    expect(new Set(answers.map((a) => a.body.call_sid)).size).toBe(30);
    for (const a of answers) expect((await conversation(acme, a.body.call_sid)).body.num_turns).toBe(2);
    expect((await limits(t, acme.accountId, acme.key)).body).toEqual({ concurrent_calls: 30, in_progress: 0 });
  });
});
