import { advanceClock } from '../helpers/keys-fixtures';
import { expectEnvelope, request, startTestApp, type TestApp } from '../helpers/test-app';
import {
  callingAccount,
  callStatus,
  eventually,
  issueKey,
  placeCall,
  provisionNumber,
  statusBecomes,
  type CallingAccount,
} from './outbound-calls-fixture';

describe('outbound calls: every refusal in the envelope (contract §2, §4, §10)', () => {
  let t: TestApp;
  let acme: CallingAccount;
  let globex: CallingAccount;

  beforeAll(async () => {
    t = await startTestApp({ PARLEY_TEST_CLOCK: '1', OUTBOUND_MAX_CONCURRENT_CALLS: '2' });
    acme = await callingAccount(t, 'Acme', 'Hi from Acme', '+15550100001');
    globex = await callingAccount(t, 'Globex', 'Hi from Globex', '+15550200002');
  });
  afterAll(async () => t.close());

  describe('validation: 400 naming the field', () => {
    it.each([
      ['missing to_number', {}, 'to_number'],
      ['to_number not E.164 (no plus)', { to_number: '15551234567' }, 'to_number'],
      ['to_number not E.164 (letters)', { to_number: '+1555CALLME' }, 'to_number'],
      ['to_number too long', { to_number: '+1234567890123456' }, 'to_number'],
      ['to_number a number', { to_number: 15551234567 }, 'to_number'],
      ['from_number not E.164', { to_number: '+15551234567', from_number: '0800 123' }, 'from_number'],
      ['country_code not ISO alpha-2', { to_number: '+15551234567', country_code: 'USA' }, 'country_code'],
      ['encryption outside the enum', { to_number: '+15551234567', encryption: 'TLS/ZRTP' }, 'encryption'],
      ['metadata not an object', { to_number: '+15551234567', metadata: 'x' }, 'metadata'],
      ['metadata an array', { to_number: '+15551234567', metadata: ['a'] }, 'metadata'],
      ['metadata value not a string', { to_number: '+15551234567', metadata: { n: 1 } }, 'metadata.n'],
      [
        'metadata value with a line break',
        { to_number: '+15551234567', metadata: { note: 'a\r\nVia: evil' } },
        'metadata.note',
      ],
      ['metadata key not a header token', { to_number: '+15551234567', metadata: { 'a b': 'x' } }, 'metadata'],
      [
        'metadata key a built-in state key',
        { to_number: '+15551234567', metadata: { channel: 'SMS' } },
        'metadata.channel',
      ],
      [
        'metadata too many entries',
        {
          to_number: '+15551234567',
          metadata: Object.fromEntries(Array.from({ length: 21 }, (_, i) => [`k${i}`, 'v'])),
        },
        'metadata',
      ],
      [
        'metadata too large',
        {
          to_number: '+15551234567',
          metadata: {
            a: 'x'.repeat(500),
            b: 'x'.repeat(500),
            c: 'x'.repeat(500),
            d: 'x'.repeat(500),
            e: 'x'.repeat(500),
          },
        },
        'metadata',
      ],
      ['an unknown field', { to_number: '+15551234567', callback_url: 'https://x' }, 'callback_url'],
    ])('%s', async (_name, body, field) => {
      const r = expectEnvelope(await placeCall(t, acme.token, body), 400);
      expect(r.error_message).toContain(field);
    });

    it('malformed JSON: 400', async () => {
      expectEnvelope(
        await request(`${t.url}/v1/outbound-calling`, {
          method: 'POST',
          rawBody: '{"to_number": ',
          headers: { 'content-type': 'application/json', 'X-Service-Auth-Token': acme.token },
        }),
        400,
      );
    });

    it("a from_number that is not one of the account's numbers: 400 FROM_NUMBER_NOT_PROVISIONED (another account's too)", async () => {
      expectEnvelope(
        await placeCall(t, acme.token, { to_number: '+15551234567', from_number: '+15559999999' }),
        400,
        'FROM_NUMBER_NOT_PROVISIONED',
      );
      expectEnvelope(
        await placeCall(t, acme.token, { to_number: '+15551234567', from_number: '+15550200002' }),
        400,
        'FROM_NUMBER_NOT_PROVISIONED',
      );
    });
  });

  describe('credentials', () => {
    it('no token: 401; an x-api-key alone is not the service token: 401; an unknown token: 401', async () => {
      expectEnvelope(await placeCall(t, null, { to_number: '+15551234567' }), 401);
      expectEnvelope(await placeCall(t, null, { to_number: '+15551234567' }, { 'x-api-key': acme.token }), 401);
      expectEnvelope(await placeCall(t, 'sk_not_a_real_key', { to_number: '+15551234567' }), 401);
      expectEnvelope(
        await request(`${t.url}/v1/outbound-calling/OUT-00000000-0000-4000-8000-000000000000/status`),
        401,
      );
    });

    it('a key without outbound_calling: 403 PERMISSION_DENIED on both routes', async () => {
      const key = await issueKey(t, acme.accountId, ['conversations']);
      expectEnvelope(await placeCall(t, key, { to_number: '+15551234567' }), 403, 'PERMISSION_DENIED');
      expectEnvelope(await callStatus(t, key, 'OUT-00000000-0000-4000-8000-000000000000'), 403, 'PERMISSION_DENIED');
    });

    it("another account's call: 403; a key scoped to another agent: 403 for its number and its calls", async () => {
      const sid = (await placeCall(t, acme.token, { to_number: '+15551234567' })).body.call_sid;
      expectEnvelope(await callStatus(t, globex.token, sid), 403, 'ACCOUNT_FORBIDDEN');
      const { agentId: other } = await acme.agents.createAgent('Other', 'Other hi');
      const scoped = await issueKey(t, acme.accountId, ['outbound_calling'], [other]);
      expectEnvelope(
        await placeCall(t, scoped, { to_number: '+15551234567', from_number: '+15550100001' }),
        403,
        'AGENT_FORBIDDEN',
      );
      expectEnvelope(await callStatus(t, scoped, sid), 403, 'AGENT_FORBIDDEN');
      // and it reaches no number at all: 404 PHONE_NUMBER_NOT_FOUND
      expectEnvelope(await placeCall(t, scoped, { to_number: '+15551234567' }), 404, 'PHONE_NUMBER_NOT_FOUND');
      await advanceClock(t, 10);
      await statusBecomes(t, acme.token, sid, 'success');
    });
  });

  describe('caller id and deployment', () => {
    it('several agents with numbers: from_number is required (400); naming one places the call from it', async () => {
      const { agentId } = await globex.agents.createAgent('Second line', 'Second hi');
      await provisionNumber(t, agentId, '+15550200003', 'dev');
      expectEnvelope(await placeCall(t, globex.token, { to_number: '+15551234567' }), 400, 'FROM_NUMBER_REQUIRED');
      // its agent has no sandbox deployment yet: 400 NO_ACTIVE_DEPLOYMENT
      expectEnvelope(
        await placeCall(t, globex.token, { to_number: '+15551234567', from_number: '+15550200003' }),
        400,
        'NO_ACTIVE_DEPLOYMENT',
      );
      const r = await placeCall(t, globex.token, {
        to_number: '+15551234567',
        from_number: '+15550200002',
        encryption: 'UDP/RTP',
        country_code: 'us',
      });
      expect(r.status).toBe(200);
      await advanceClock(t, 10);
      await statusBecomes(t, globex.token, r.body.call_sid, 'success');
    });

    it('a live number without a live deployment: 400 NO_ACTIVE_DEPLOYMENT', async () => {
      const { agentId } = await acme.agents.createAgent('Live only', 'Live hi');
      await provisionNumber(t, agentId, '+15550100009', 'live');
      expectEnvelope(
        await placeCall(t, acme.token, { to_number: '+15551234567', from_number: '+15550100009' }),
        400,
        'NO_ACTIVE_DEPLOYMENT',
      );
    });
  });

  describe('the concurrent-call limit (OUTBOUND_MAX_CONCURRENT_CALLS=2)', () => {
    it('a third call while two are going: 429 CONCURRENT_CALL_LIMIT with Retry-After; a line frees when a call ends', async () => {
      const first = await placeCall(t, acme.token, { to_number: '+15005550001', from_number: '+15550100001' });
      const second = await placeCall(t, acme.token, { to_number: '+15005550001', from_number: '+15550100001' });
      expect([first.status, second.status]).toEqual([200, 200]);
      const refused = await placeCall(t, acme.token, { to_number: '+15551234567', from_number: '+15550100001' });
      expectEnvelope(refused, 429, 'CONCURRENT_CALL_LIMIT');
      expect(refused.headers.get('retry-after')).toMatch(/^[1-9]\d*$/);
      // another account is not affected
      const other = await placeCall(t, globex.token, { to_number: '+15551234567', from_number: '+15550200002' });
      expect(other.status).toBe(200);
      // the two end (no-answer after the ring timeout): their lines come back
      await advanceClock(t, 31);
      await statusBecomes(t, acme.token, first.body.call_sid, 'failure');
      await statusBecomes(t, acme.token, second.body.call_sid, 'failure');
      const again = await eventually(
        () => placeCall(t, acme.token, { to_number: '+15551234567', from_number: '+15550100001' }),
        (r) => r.status !== 429,
      );
      expect(again.status).toBe(200);
      await advanceClock(t, 10);
      await statusBecomes(t, acme.token, again.body.call_sid, 'success');
    });

    it('racing requests never exceed the limit', async () => {
      const results = await Promise.all(
        Array.from({ length: 6 }, () =>
          placeCall(t, acme.token, { to_number: '+15005550001', from_number: '+15550100001' }),
        ),
      );
      expect(results.filter((r) => r.status === 200)).toHaveLength(2);
      expect(results.filter((r) => r.status === 429)).toHaveLength(4);
      await advanceClock(t, 31);
      for (const r of results.filter((x) => x.status === 200))
        await statusBecomes(t, acme.token, r.body.call_sid, 'failure');
    });
  });
});
