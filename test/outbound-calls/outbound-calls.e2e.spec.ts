import { conversationStream } from '../../src/conversations/conversation.events';
import { EVENT_STORE, type EventStore } from '../../src/event-store/event-store.port';
import { outboundCallStream } from '../../src/outbound-calls/outbound-call.events';
import { advanceClock } from '../helpers/keys-fixtures';
import { expectEnvelope, request, startTestApp, type TestApp } from '../helpers/test-app';
import {
  callingAccount,
  callStatus,
  eventually,
  placeCall,
  statusBecomes,
  type CallingAccount,
} from './outbound-calls-fixture';

const GREETING = 'Hello, this is Acme calling about your order.';
const CALLER = '+15550100001';
const SIM = { pickUp: 1, answerAfter: 3, busyAfter: 2, listen: 5 };

describe('outbound calls on the embedded carrier (contract §10)', () => {
  let t: TestApp;
  let acme: CallingAccount;
  let store: EventStore;

  beforeAll(async () => {
    t = await startTestApp({ PARLEY_TEST_CLOCK: '1', OUTBOUND_RING_TIMEOUT_S: '30' });
    store = t.app.get<EventStore>(EVENT_STORE);
    acme = await callingAccount(t, 'Acme', GREETING, CALLER);
  });
  afterAll(async () => t.close());

  it('answers 200 {call_sid}; the call is queued, then calling, then a success once the callee hung up', async () => {
    const r = await placeCall(t, acme.token, {
      to_number: '+447700900123',
      metadata: { order_id: 'A-17', customer: 'Ada' },
    });
    expect(r.status).toBe(200);
    expect(Object.keys(r.body)).toEqual(['call_sid']);
    const sid: string = r.body.call_sid;
    expect(sid).toMatch(/^OUT-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);

    expect((await callStatus(t, acme.token, sid)).body).toEqual({ call_sid: sid, status: 'queued', reason: null });
    await advanceClock(t, SIM.pickUp);
    expect(await statusBecomes(t, acme.token, sid, 'calling')).toEqual({
      call_sid: sid,
      status: 'calling',
      reason: null,
    });
    await advanceClock(t, SIM.answerAfter);
    // answered: the conversation exists and the greeting is its first turn; the call is still on
    const conversation = await eventually(
      () => store.readStream(conversationStream(sid)),
      (events) => events.length >= 3,
    );
    expect((await callStatus(t, acme.token, sid)).body.status).toBe('calling');
    expect(conversation.map((e) => e.type)).toEqual(['ConversationStarted', 'StateChanged', 'TurnRecorded']);
    expect(conversation[0].data).toMatchObject({
      conversationId: sid,
      accountId: acme.accountId.replace(/^ws-/, ''),
      channel: 'VOICE-SIP',
      environment: 'sandbox',
      fromNumber: CALLER,
      toNumber: '+447700900123',
    });
    expect(conversation[1].data).toEqual({
      changes: {
        order_id: 'A-17',
        customer: 'Ada',
        conversation_id: sid,
        channel: 'VOICE-SIP',
        environment: 'sandbox',
        caller_number: '+447700900123',
        agent_number: CALLER,
        language: 'en-GB',
      },
    });
    expect(conversation[2].data).toMatchObject({ turnIndex: 0, userInput: '', agentResponse: GREETING });

    await advanceClock(t, SIM.listen);
    expect(await statusBecomes(t, acme.token, sid, 'success')).toEqual({
      call_sid: sid,
      status: 'success',
      reason: null,
    });
    // post-call analysis may follow the end at any moment: the end is found, not taken as the last event
    const ended = await eventually(
      () => store.readStream(conversationStream(sid)),
      (events) => events.some((e) => e.type === 'ConversationEnded'),
    );
    expect(ended.find((e) => e.type === 'ConversationEnded')!.data).toMatchObject({ reason: 'user' });
    const call = await store.readStream(outboundCallStream(sid));
    expect(call.map((e) => e.type)).toEqual([
      'OutboundCallQueued',
      'OutboundCallDialing',
      'OutboundCallRinging',
      'OutboundCallAnswered',
      'OutboundCallEnded',
    ]);
    expect(call[0].data).toMatchObject({
      encryption: 'TLS/SRTP',
      metadata: { order_id: 'A-17', customer: 'Ada' },
      carrier: 'simulator',
      fromNumber: CALLER,
    });
  });

  it('is a conversation of the Conversations API: channel VOICE-SIP, id = call_sid, metadata in its state', async () => {
    const sid = (await placeCall(t, acme.token, { to_number: '+15551230000', metadata: { ticket: '991' } })).body
      .call_sid;
    await advanceClock(t, SIM.pickUp + SIM.answerAfter + SIM.listen);
    await statusBecomes(t, acme.token, sid, 'success');
    const path = `${t.url}/v3/${acme.accountId}/${acme.agentId}/conversations/${sid}?include_context_state=true`;
    const r = await eventually(
      () => request(path, { headers: { 'x-api-key': acme.token } }),
      (x) => x.status === 200 && x.body.in_progress === false,
    );
    expect(r.body).toMatchObject({
      id: sid,
      channel: 'VOICE-SIP',
      environment: 'sandbox',
      from_number: CALLER,
      to_number: '+15551230000',
      num_turns: 1,
      in_progress: false,
    });
    expect(r.body.state).toMatchObject({ ticket: '991', channel: 'VOICE-SIP' });
  });

  /** Read once, right after the status said failure (contract §2: no retry, no transient 404). */
  const unconnectedConversation = async (sid: string, reason: string) => {
    const base = `${t.url}/v3/${acme.accountId}/${acme.agentId}/conversations/${sid}`;
    const r = await request(`${base}?include_context_state=true`, { headers: { 'x-api-key': acme.token } });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({
      id: sid,
      channel: 'VOICE-SIP',
      from_number: CALLER,
      num_turns: 0,
      in_progress: false,
      turns: [],
    });
    expect(r.body.state).toMatchObject({ channel: 'VOICE-SIP', call_status: 'failure', failure_reason: reason });
    const events = await request(`${base}/events`, { headers: { 'x-api-key': acme.token } });
    expect(events.status).toBe(200);
    // and then, behind the log, its post-call analysis
    const types = events.body.events
      .map((e: { type: string }) => e.type)
      .filter((type: string) => type !== 'ConversationAnalysed');
    expect(types).toEqual(['ConversationStarted', 'StateChanged', 'ConversationEnded']);
    expect(events.body.events[2].data).toMatchObject({ reason: 'not_connected' });
  };

  it('+15005550002 is busy: failure, reason busy, readable at once as a conversation with no turn', async () => {
    const sid = (await placeCall(t, acme.token, { to_number: '+15005550002' })).body.call_sid;
    await advanceClock(t, SIM.pickUp);
    await statusBecomes(t, acme.token, sid, 'calling');
    await advanceClock(t, SIM.busyAfter);
    expect(await statusBecomes(t, acme.token, sid, 'failure')).toEqual({
      call_sid: sid,
      status: 'failure',
      reason: 'busy',
    });
    await unconnectedConversation(sid, 'busy');
    // no greeting was heard, so none was recorded
    const recorded = await store.readStream(conversationStream(sid));
    expect(recorded.filter((e) => e.type === 'TurnRecorded')).toEqual([]);
  });

  it('+15005550001 never connects: calling for the whole ring timeout, then failure no-answer', async () => {
    const sid = (await placeCall(t, acme.token, { to_number: '+15005550001' })).body.call_sid;
    await advanceClock(t, SIM.pickUp + 29);
    await statusBecomes(t, acme.token, sid, 'calling');
    await advanceClock(t, 1);
    expect(await statusBecomes(t, acme.token, sid, 'failure')).toEqual({
      call_sid: sid,
      status: 'failure',
      reason: 'no-answer',
    });
    await unconnectedConversation(sid, 'no-answer');
  });

  it('keeps the status for 2 hours after the end on the platform clock, then answers 404', async () => {
    const sid = (await placeCall(t, acme.token, { to_number: '+15005550002' })).body.call_sid;
    await advanceClock(t, SIM.pickUp + SIM.busyAfter);
    await statusBecomes(t, acme.token, sid, 'failure');
    await advanceClock(t, 2 * 3600 - 1);
    expect((await callStatus(t, acme.token, sid)).body).toMatchObject({ status: 'failure', reason: 'busy' });
    await advanceClock(t, 1);
    expectEnvelope(await callStatus(t, acme.token, sid), 404, 'CALL_NOT_FOUND');
  });

  it('does not expire a call that is still going, however long it has been queued', async () => {
    const sid = (await placeCall(t, acme.token, { to_number: '+15005550001' })).body.call_sid;
    expect((await callStatus(t, acme.token, sid)).body.status).toBe('queued');
    // time stands still for the call only until the clock moves; the status route never 404s a live call
    expect((await callStatus(t, acme.token, sid)).status).toBe(200);
    await advanceClock(t, SIM.pickUp + 30);
    await statusBecomes(t, acme.token, sid, 'failure');
  });

  it('unknown and malformed call sids: 404 CALL_NOT_FOUND in the envelope', async () => {
    expectEnvelope(await callStatus(t, acme.token, 'OUT-00000000-0000-4000-8000-000000000000'), 404, 'CALL_NOT_FOUND');
    expectEnvelope(await callStatus(t, acme.token, 'not-a-call'), 404, 'CALL_NOT_FOUND');
    expectEnvelope(await callStatus(t, acme.token, 'OUT-../../etc'), 404, 'CALL_NOT_FOUND');
  });

  it('a repeat with the same Idempotency-Key places one call', async () => {
    const body = { to_number: '+15551239999' };
    const first = await placeCall(t, acme.token, body, { 'Idempotency-Key': 'call-once-1' });
    const again = await placeCall(t, acme.token, body, { 'Idempotency-Key': 'call-once-1' });
    expect(first.status).toBe(200);
    expect(again.body).toEqual(first.body);
    expectEnvelope(
      await placeCall(t, acme.token, { to_number: '+15551238888' }, { 'Idempotency-Key': 'call-once-1' }),
      409,
    );
    await advanceClock(t, SIM.pickUp + SIM.answerAfter + SIM.listen);
    await statusBecomes(t, acme.token, first.body.call_sid, 'success');
  });
});
