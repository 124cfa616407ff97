import pino from 'pino';
import type { CallProgress } from '../../src/outbound-calls/carrier.port';
import type { QueuedCall } from '../../src/outbound-calls/outbound-call.events';
import { SipCall } from '../../src/outbound-calls/sip/sip-call';
import { freeUdpPort, runCallee, sippAvailable, sippMissing } from '../outbound-calls/sipp';
import { RecordingCallAudioFactory, RecordingVoiceCalls } from './recording-voice';

const available = sippAvailable();
if (!available) sippMissing();
const describeSip = available ? describe : describe.skip;

const CALL: QueuedCall = {
  callSid: 'OUT-00000000-0000-4000-8000-000000000001',
  accountId: 'acct',
  agentId: 'agent',
  deploymentId: 'dep',
  environment: 'sandbox',
  fromNumber: '+15550100001',
  toNumber: '+15551234567',
  countryCode: null,
  metadata: { order_id: 'A-17', customer: 'Ada Lovelace' },
  encryption: 'TLS/SRTP',
  carrier: 'sip',
  queuedAt: '2026-01-01T00:00:00.000Z',
};

/** What a carrier reported, in order. */
function recordingProgress() {
  const reports: string[] = [];
  const progress: CallProgress = {
    dialing: async () => void reports.push('dialing'),
    ringing: async () => void reports.push('ringing'),
    answered: async () => void reports.push('answered'),
    ended: async (_sid, end) => void reports.push(`ended ${end.reason} ${end.hungUpBy} ${end.sipStatus}`),
  };
  return { reports, progress };
}

describeSip('an outbound SIP call over TCP (sipp as the callee on TCP)', () => {
  it('INVITE over one TCP connection (no retransmissions), answered, audio connected, BYE from the callee', async () => {
    const port = await freeUdpPort();
    const callee = await runCallee('answer-savp-callee-hangs-up.xml', port, 't1');
    const { reports, progress } = recordingProgress();
    const audio = new RecordingCallAudioFactory();
    const voice = new RecordingVoiceCalls();
    const call = new SipCall(
      CALL,
      { trunkHost: '127.0.0.1', trunkPort: port, ringTimeoutS: 10, holdMs: 0, transport: 'tcp' },
      progress,
      pino({ level: 'silent' }),
      { audio, voice },
    );
    try {
      await call.start();
      await call.done;
      const sipp = await callee.exited;
      if (sipp.code !== 0) console.error(sipp.output);
      expect(sipp.code).toBe(0);
    } finally {
      callee.kill();
    }
    expect(reports).toEqual(['dialing', 'ringing', 'answered', 'ended error callee null']);
    expect(audio.opened).toHaveLength(1);
    // sipp answers PCMU on its media port in RTP/SAVP, a=inactive: the far end's direction is passed
    // on as it said, and the SDES keys (its own, and the one we offered) with it
    expect(audio.opened[0].connects).toEqual([
      expect.objectContaining({
        codec: 'PCMU',
        payloadType: 0,
        direction: 'inactive',
        remoteAddress: '127.0.0.1',
        srtp: {
          suite: 'AES_CM_128_HMAC_SHA1_80',
          remoteKey: 'AQIDBAUGBwgJCgsMDQ4PEBESExQVFhcYGRobHB0e',
          localKey: expect.stringMatching(/^[A-Za-z0-9+/]{40}$/),
        },
      }),
    ]);
    expect(audio.opened[0].closed).toBe(true);
    expect(voice.calls).toEqual([expect.objectContaining({ conversationId: CALL.callSid, direction: 'outbound' })]);
  }, 60_000);
});
