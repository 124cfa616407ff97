import { EVENT_STORE, type EventStore } from '../../src/event-store/event-store.port';
import { conversationStream } from '../../src/conversations/conversation.events';
import { outboundCallStream } from '../../src/outbound-calls/outbound-call.events';
import { startTestApp, type TestApp } from '../helpers/test-app';
import {
  callingAccount,
  callStatus,
  eventually,
  placeCall,
  statusBecomes,
  type CallingAccount,
} from './outbound-calls-fixture';
import { freeUdpPort, runCallee, sippAvailable, sippMissing } from './sipp';

const available = sippAvailable();
if (!available) sippMissing();
const describeSip = available ? describe : describe.skip;

const GREETING = 'Hello, this is Acme on a real line.';
const METADATA = { order_id: 'A-17', customer: 'Ada Lovelace' };

describeSip('the SIP carrier against sipp as the callee (UDP, 127.0.0.1)', () => {
  let t: TestApp;
  let acme: CallingAccount;
  let store: EventStore;
  let port: number;

  beforeAll(async () => {
    port = await freeUdpPort();
    // a 2 s ring timeout keeps the no-answer cases short; the agent stays on 1.5 s for the callee's BYE.
    // Signalling only (`audio: null`): these are the carrier's SIP cases, without speech.
    t = await startTestApp(
      {
        PARLEY_TEST_CLOCK: '1',
        OUTBOUND_CARRIER: 'sip',
        SIP_TRUNK: `127.0.0.1:${port}`,
        OUTBOUND_RING_TIMEOUT_S: '2',
        SIP_HOLD_MS: '1500',
      },
      undefined,
      [],
      { audio: null },
    );
    store = t.app.get<EventStore>(EVENT_STORE);
    acme = await callingAccount(t, 'Acme', GREETING, '+15550100001');
  });
  afterAll(async () => t?.close());

  async function call(scenario: string, body: Record<string, unknown>) {
    const callee = await runCallee(scenario, port);
    try {
      const r = await placeCall(t, acme.token, { to_number: '+15551234567', ...body });
      expect(r.status).toBe(200);
      const sid: string = r.body.call_sid;
      const status = (
        await eventually(
          () => callStatus(t, acme.token, sid),
          (x) => x.status === 200 && ['success', 'failure'].includes(x.body.status),
          15000,
        )
      ).body;
      const sipp = await callee.exited;
      // sipp's own account of what went wrong, when it did
      if (sipp.code !== 0) console.error(sipp.output);
      return { sid, status, sipp };
    } finally {
      callee.kill();
    }
  }

  it('answered, the callee hangs up: INVITE with X- headers and an SRTP offer, 180, 200, ACK, BYE from the callee → success', async () => {
    const { sid, status, sipp } = await call('answer-callee-hangs-up.xml', { metadata: METADATA });
    expect(sipp).toMatchObject({ code: 0 });
    expect(status).toEqual({ call_sid: sid, status: 'success', reason: null });
    const events = await store.readStream(outboundCallStream(sid));
    expect(events.map((e) => e.type)).toEqual([
      'OutboundCallQueued',
      'OutboundCallDialing',
      'OutboundCallRinging',
      'OutboundCallAnswered',
      'OutboundCallEnded',
    ]);
    expect(events.at(-1)!.data).toMatchObject({ status: 'success', hungUpBy: 'callee' });
    const conversation = await eventually(
      () => store.readStream(conversationStream(sid)),
      (e) => e.some((event) => event.type === 'ConversationEnded'),
    );
    // post-call analysis may follow the end at any moment (behind the log)
    expect(conversation.map((e) => e.type).filter((type) => type !== 'ConversationAnalysed')).toEqual([
      'ConversationStarted',
      'StateChanged',
      'TurnRecorded',
      'ConversationEnded',
    ]);
    expect(conversation[0].data).toMatchObject({
      channel: 'VOICE-SIP',
      fromNumber: '+15550100001',
      toNumber: '+15551234567',
    });
    expect(conversation[1].data).toMatchObject({ changes: METADATA });
    expect(conversation[2].data).toMatchObject({ turnIndex: 0, agentResponse: GREETING });
    expect(conversation[3].data).toMatchObject({ reason: 'user' });
  }, 120_000);

  it('answered, the callee stays on: the agent hangs up with a BYE after its greeting → success', async () => {
    const { sid, status, sipp } = await call('answer-agent-hangs-up.xml', {
      metadata: METADATA,
      encryption: 'TLS/SRTP',
    });
    expect(sipp).toMatchObject({ code: 0 });
    expect(status.status).toBe('success');
    const events = await store.readStream(outboundCallStream(sid));
    expect(events.at(-1)!.data).toMatchObject({ status: 'success', hungUpBy: 'agent' });
    const conversation = await eventually(
      () => store.readStream(conversationStream(sid)),
      (e) => e.some((event) => event.type === 'ConversationEnded'),
    );
    expect(conversation.find((e) => e.type === 'ConversationEnded')!.data).toMatchObject({ reason: 'agent' });
  }, 120_000);

  it('486 Busy Here → failure busy (and the 486 is ACKed)', async () => {
    const { sid, status, sipp } = await call('busy.xml', { encryption: 'UDP/RTP' });
    expect(sipp).toMatchObject({ code: 0 });
    expect(status).toEqual({ call_sid: sid, status: 'failure', reason: 'busy' });
    expect((await store.readStream(outboundCallStream(sid))).at(-1)!.data).toMatchObject({ sipStatus: 486 });
    // no one answered: a conversation with no agent turn, ended as not connected (contract §2, §10)
    const conversation = await eventually(
      () => store.readStream(conversationStream(sid)),
      (e) => e.some((event) => event.type === 'ConversationEnded'),
    );
    expect(conversation.map((e) => e.type)).not.toContain('TurnRecorded');
    expect(conversation.find((e) => e.type === 'ConversationEnded')!.data).toMatchObject({ reason: 'not_connected' });
  }, 120_000);

  it('rings past the ring timeout → CANCEL, 487, ACK → failure no-answer', async () => {
    const { sid, status, sipp } = await call('ring-no-answer.xml', {});
    expect(sipp).toMatchObject({ code: 0 });
    expect(status).toEqual({ call_sid: sid, status: 'failure', reason: 'no-answer' });
    expect((await store.readStream(outboundCallStream(sid))).at(-1)!.data).toMatchObject({ sipStatus: 487 });
  }, 120_000);

  it('no response at all within the ring timeout → failure no-answer', async () => {
    const { sid, status } = await call('silent.xml', {});
    expect(status).toEqual({ call_sid: sid, status: 'failure', reason: 'no-answer' });
  }, 120_000);

  it('nothing listening on the trunk → failure unreachable', async () => {
    const r = await placeCall(t, acme.token, { to_number: '+15551234567' });
    expect(r.status).toBe(200);
    expect(await statusBecomes(t, acme.token, r.body.call_sid, 'failure', 10000)).toMatchObject({
      reason: 'unreachable',
    });
  }, 120_000);
});
