import type { CallAudio, CallAudioFactory } from '../../src/voice/call-media.port';
import { headerOf } from '../../src/sip/sip-message';
import { RtpCallAudioFactory } from '../../src/voice/media/rtp-call-audio-factory';
import type { RtpSession } from '../../src/voice/media/rtp-session';
import { UtteranceDetector } from '../../src/voice/turn-taking/utterance-detector';
import { loadVoiceConfig } from '../../src/voice/voice-config';
import { startTestApp, type TestApp } from '../helpers/test-app';
import {
  callingAccount,
  placeCall,
  statusBecomes,
  type CallingAccount,
} from '../outbound-calls/outbound-calls-fixture';
import { runCallee, sippAvailable } from '../outbound-calls/sipp';
import { bounded, TestSipCallee, type AnsweredCall } from './test-sip-callee';
import { embeddedAsr, speechInstalled } from './voice-fixture';

const describeSpeech = speechInstalled && sippAvailable() ? describe : describe.skip;

const GREETING = 'Hello, how can I help?';
/** what the callee may hear: the greeting among look-alikes, so recognising it means something */
const HEARD = [GREETING, 'We are open from nine to five on weekdays.', 'Are you still there?', 'Goodbye.'];
/** every wait of these tests is bounded well inside the 60 s a test may take */
const WAIT_MS = 25_000;

/** Parley's RTP factory, remembering the sessions it opened (to read their counters). */
class RecordingFactory implements CallAudioFactory {
  readonly opened: RtpSession[] = [];
  private readonly rtp = new RtpCallAudioFactory(loadVoiceConfig({ RTP_PORT_MIN: '37002', RTP_PORT_MAX: '38000' }));
  async open(localAddress: string): Promise<CallAudio> {
    const session = await this.rtp.open(localAddress);
    this.opened.push(session);
    return session;
  }
}

/**
 * Issue 36's outbound proof, no mocks inside Parley: POST /v1/outbound-calling dials a callee on
 * 127.0.0.1 (a small test UA, then sipp); the callee answers and hears the agent's greeting over
 * RTP, SRTP by default (the test side decrypts with its own SrtpContext), recognised by
 * pocketsphinx on the test side.
 */
describeSpeech('an outbound call carries the greeting, over SRTP or RTP', () => {
  let t: TestApp;
  let acme: CallingAccount;
  let callee: TestSipCallee;
  let trunkPort: number;
  let calleeClosed = false;
  const factory = new RecordingFactory();
  const asr = embeddedAsr();

  beforeAll(async () => {
    callee = await TestSipCallee.open({ min: 38002, max: 39000 });
    trunkPort = callee.port;
    t = await startTestApp(
      {
        PARLEY_TEST_CLOCK: '1',
        OUTBOUND_CARRIER: 'sip',
        SIP_TRUNK: `127.0.0.1:${trunkPort}`,
        OUTBOUND_RING_TIMEOUT_S: '10',
      },
      undefined,
      [],
      { audio: factory },
    );
    acme = await callingAccount(t, 'Acme', GREETING, '+15550100001');
  }, 60_000);
  afterAll(async () => {
    if (!calleeClosed) await callee?.close();
    await t?.close();
  });

  /** Places a call, lets the callee answer, and returns what it hears as utterances. */
  async function callAndHear(body: Record<string, unknown>) {
    const answered = callee.answered(WAIT_MS);
    const r = await placeCall(t, acme.token, { to_number: '+15551234567', ...body });
    expect(r.status).toBe(200);
    const call = await answered;
    const heard: Int16Array[] = [];
    const detector = new UtteranceDetector({ endSilenceMs: 700 });
    call.audio.onAudio((frame) => {
      for (const e of detector.push(frame)) if (e.type === 'utterance') heard.push(e.pcm);
    });
    return { sid: r.body.call_sid as string, call, heard };
  }

  async function until(what: string, condition: () => boolean): Promise<void> {
    const deadline = Date.now() + WAIT_MS;
    while (!condition()) {
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  async function hearsTheGreeting(call: AnsweredCall, heard: Int16Array[]) {
    await until('the greeting', () => heard.length >= 1);
    expect(await bounded('recognition', asr.recognize(heard[0], { phrases: HEARD }), WAIT_MS)).toBe(
      'hello how can i help',
    );
    expect(call.audio.stats.received).toBeGreaterThan(50);
  }

  it('the default encryption (TLS/SRTP): RTP/SAVP with SDES keys both ways, and the greeting is heard through SRTP', async () => {
    const { sid, call, heard } = await callAndHear({});
    expect(call.offer.media[0].proto).toBe('RTP/SAVP');
    expect(call.negotiated.srtp).toMatchObject({ suite: 'AES_CM_128_HMAC_SHA1_80' });
    await hearsTheGreeting(call, heard);
    expect(call.audio.stats.unauthenticated).toBe(0);
    // Parley reads the callee's SRTP too (its comfort silence), and nothing failed authentication
    const parley = factory.opened.at(-1)!;
    expect(parley.stats.received).toBeGreaterThan(20);
    expect(parley.stats.unauthenticated).toBe(0);
    callee.hangUp();
    expect(await statusBecomes(t, acme.token, sid, 'success', WAIT_MS / 5)).toMatchObject({ status: 'success' });
  }, 60_000);

  it('UDP/RTP: plain RTP/AVP, and the greeting is heard', async () => {
    const { sid, call, heard } = await callAndHear({ encryption: 'UDP/RTP' });
    expect(call.offer.media[0].proto).toBe('RTP/AVP');
    expect(call.negotiated.srtp).toBeNull();
    await hearsTheGreeting(call, heard);
    callee.hangUp();
    expect(await statusBecomes(t, acme.token, sid, 'success', WAIT_MS / 5)).toMatchObject({ status: 'success' });
  }, 60_000);

  it('the callee holds (re-INVITE sendonly) and resumes (sendrecv); UPDATE and INFO are answered as on inbound calls', async () => {
    const { sid, call } = await callAndHear({});
    await until('Parley sending', () => call.audio.stats.received > 10);
    const parleyKey = call.negotiated.srtp!.remoteKey;

    const held = await callee.reinvite('sendonly', WAIT_MS);
    expect(held.status).toBe(200);
    expect(held.body).toContain('m=audio');
    expect(held.body).toContain('RTP/SAVP');
    expect(held.body).toContain('a=recvonly');
    // the stream keeps its keys: a hold does not re-key SRTP
    expect(held.body).toContain(`inline:${parleyKey}`);
    await new Promise((r) => setTimeout(r, 300));
    const whileHeld = call.audio.stats.received;
    await new Promise((r) => setTimeout(r, 1000));
    expect(call.audio.stats.received - whileHeld).toBeLessThanOrEqual(3);

    // an SRTP call is not taken down to plain RTP: refused, and the call carries on as it was
    const downgrade = await callee.reinvite('sendrecv', WAIT_MS, { plain: true });
    expect(downgrade.status).toBe(488);

    const resumed = await callee.reinvite('sendrecv', WAIT_MS);
    expect(resumed.status).toBe(200);
    expect(resumed.body).toContain('a=sendrecv');
    const atResume = call.audio.stats.received;
    await until('Parley sending again', () => call.audio.stats.received > atResume + 20);
    expect(call.audio.stats.unauthenticated).toBe(0);

    expect((await callee.request('UPDATE', WAIT_MS)).status).toBe(200);
    const dtmf = 'Signal=5\r\nDuration=160\r\n';
    expect((await callee.request('INFO', WAIT_MS, [['Content-Type', 'application/dtmf-relay']], dtmf)).status).toBe(
      200,
    );
    const infoPackage = await callee.request('INFO', WAIT_MS, [['Info-Package', 'foo']]);
    expect(infoPackage.status).toBe(469);
    const unknown = await callee.request('MESSAGE', WAIT_MS);
    expect(unknown.status).toBe(405);
    expect(headerOf(unknown, 'allow')).toBe('INVITE, ACK, CANCEL, BYE, OPTIONS, UPDATE, INFO');

    callee.hangUp();
    expect(await statusBecomes(t, acme.token, sid, 'success', WAIT_MS / 5)).toMatchObject({ status: 'success' });
  }, 60_000);

  it("sipp as the callee (-rtp_echo): Parley's RTP reaches sipp and comes back", async () => {
    // the test UA gives the trunk's port to sipp for this last call
    await callee.close();
    calleeClosed = true;
    const sipp = await runCallee('answer-echo.xml', trunkPort, 'u1', ['-rtp_echo']);
    try {
      const before = factory.opened.length;
      const r = await placeCall(t, acme.token, { to_number: '+15551234567', encryption: 'UDP/RTP' });
      expect(r.status).toBe(200);
      expect(await statusBecomes(t, acme.token, r.body.call_sid, 'success', WAIT_MS / 5)).toMatchObject({
        status: 'success',
      });
      const exited = await bounded('sipp to finish', sipp.exited, WAIT_MS);
      if (exited.code !== 0) console.error(exited.output);
      expect(exited.code).toBe(0);
      const parley = factory.opened[before];
      // what Parley sent for 4 s came back from sipp's media port
      expect(parley.stats.sent).toBeGreaterThan(50);
      expect(parley.stats.received).toBeGreaterThan(50);
    } finally {
      sipp.kill();
    }
  }, 60_000);
});
