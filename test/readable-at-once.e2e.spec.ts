import { advanceClock } from './helpers/keys-fixtures';
import { expectEnvelope, request, type TestApp } from './helpers/test-app';
import { callingAccount, placeCall, statusBecomes, type CallingAccount } from './outbound-calls/outbound-calls-fixture';
import {
  conversation,
  newUserNumber,
  sendInbound,
  sendOutbound,
  startSmsFixture,
  type SmsFixture,
} from './sms/sms-fixture';

const ROUNDS = 20;
const SIM = { pickUp: 1, answerAfter: 3, busyAfter: 2, listen: 5 };

/**
 * Contract §2: a conversation id an answer hands out is readable through the Conversations API as
 * soon as that answer is sent, on every channel, including those that start their conversation
 * behind the log (SMS sessions, calls). Each round reads right after the answer: no 404, ever.
 */
describe('conversation ids are readable at once (contract §2)', () => {
  let f: SmsFixture;
  let t: TestApp;
  let calls: CallingAccount;

  beforeAll(async () => {
    f = await startSmsFixture({ OUTBOUND_RING_TIMEOUT_S: '30' });
    t = f.t;
    calls = await callingAccount(t, 'Caller Co', 'Hello from the caller.', '+15550100099');
  });
  afterAll(async () => f.close());

  it('an outbound SMS conversation right after its 202', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < ROUNDS; i++) {
      const sent = await sendOutbound(f, { user_number: newUserNumber(), message: `Your order ${i} shipped.` });
      expect(sent.status).toBe(202);
      statuses.push((await conversation(f, sent.body.conversation_id)).status);
    }
    expect(statuses).toEqual(Array(ROUNDS).fill(200));
  });

  it('an inbound SMS conversation right after the webhook answers', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < ROUNDS; i++) {
      const received = await sendInbound(t, f.connector, { from: newUserNumber(), text: 'when are you open' });
      expect(received.status).toBe(200);
      statuses.push((await conversation(f, received.body.conversation_id)).status);
    }
    expect(statuses).toEqual(Array(ROUNDS).fill(200));
  });

  it('its audit events too, right after the 202', async () => {
    const sent = await sendOutbound(f, { user_number: newUserNumber(), message: 'Audit me.' });
    const events = await request(
      `${t.url}/v3/${f.account.accountId}/${f.agentId}/conversations/${sent.body.conversation_id}/events`,
      { headers: { 'x-api-key': f.account.key } },
    );
    expect(events.status).toBe(200);
    expect(events.body.events[0].type).toBe('ConversationStarted');
  });

  it('an outbound call conversation once its status is success', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < ROUNDS; i++) {
      const sid = (await placeCall(t, calls.token, { to_number: `+1555123${String(i).padStart(4, '0')}` })).body
        .call_sid;
      await advanceClock(t, SIM.pickUp + SIM.answerAfter + SIM.listen);
      await statusBecomes(t, calls.token, sid, 'success');
      const r = await request(`${t.url}/v3/${calls.accountId}/${calls.agentId}/conversations/${sid}`, {
        headers: { 'x-api-key': calls.token },
      });
      statuses.push(r.status);
    }
    expect(statuses).toEqual(Array(ROUNDS).fill(200));
  });

  it('an outbound call that never connected (busy) once its status is failure: ended, no turn', async () => {
    const answers: Array<[number, boolean, number]> = [];
    for (let i = 0; i < ROUNDS; i++) {
      const sid = (await placeCall(t, calls.token, { to_number: '+15005550002' })).body.call_sid;
      await advanceClock(t, SIM.pickUp + SIM.busyAfter);
      await statusBecomes(t, calls.token, sid, 'failure');
      const r = await request(`${t.url}/v3/${calls.accountId}/${calls.agentId}/conversations/${sid}`, {
        headers: { 'x-api-key': calls.token },
      });
      answers.push([r.status, r.body.in_progress, r.body.num_turns]);
    }
    expect(answers).toEqual(Array(ROUNDS).fill([200, false, 0]));
  });

  it('still answers 404 for ids that do not exist, without waiting', async () => {
    for (const id of ['SMS-00000000-0000-4000-8000-000000000000', 'OUT-nothing', 'CHAT-x', 'whatever']) {
      const started = Date.now();
      expectEnvelope(await conversation(f, id), 404, 'CONVERSATION_NOT_FOUND');
      // the bound of the wait is 1.5 s; an idle app answers in milliseconds
      expect(Date.now() - started).toBeLessThan(1000);
    }
  });
});
