import { randomUUID } from 'node:crypto';
import dgram from 'node:dgram';
import {
  buildAck,
  buildBye,
  buildInvite,
  buildResponse,
  headerOf,
  newBranch,
  parseSipMessage,
  serialize,
  tagOf,
  uriOf,
  type DialogIds,
  type SipMessage,
} from '../../src/sip/sip-message';
import { buildOffer, newSdesKey, OFFERED_CRYPTO, parseSdp, readAnswer, type OfferedKey } from '../../src/sip/sdp';
import { RtpCallAudioFactory } from '../../src/voice/media/rtp-call-audio-factory';
import type { RtpSession } from '../../src/voice/media/rtp-session';
import { loadVoiceConfig } from '../../src/voice/voice-config';

/**
 * A small SIP user agent for tests, the caller's side of a call over UDP on 127.0.0.1: Parley's
 * own message builders for the signalling, and the media side's RtpSession as the caller's phone
 * (it plays PCM and hears Parley's RTP). It calls, ACKs the 200, answers Parley's BYE and hangs up.
 */
export class TestSipUa {
  readonly audio: RtpSession;
  /** every final response to the INVITE, and each request Parley sent */
  readonly received: SipMessage[] = [];
  private dialog!: DialogIds;
  /** the CSeq of our last request in the dialog */
  private cseq = 1;
  private answered: ((status: number) => void) | null = null;
  private byeFromParley: (() => void) | null = null;
  private offered: OfferedKey | null = null;
  /** resolves when Parley hangs up (its BYE) */
  readonly hungUpByParley: Promise<void>;

  private constructor(
    private readonly socket: dgram.Socket,
    audio: RtpSession,
  ) {
    this.audio = audio;
    this.hungUpByParley = new Promise((resolve) => (this.byeFromParley = resolve));
    socket.on('message', (data) => this.receive(data.toString('utf8')));
  }

  static async open(rtpPorts: { min: number; max: number }): Promise<TestSipUa> {
    const socket = dgram.createSocket('udp4');
    await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
    const factory = new RtpCallAudioFactory(
      loadVoiceConfig({ RTP_PORT_MIN: String(rtpPorts.min), RTP_PORT_MAX: String(rtpPorts.max) }),
    );
    return new TestSipUa(socket, await factory.open('127.0.0.1'));
  }

  /**
   * INVITE sip:<number>@127.0.0.1:<port>; resolves with the final status (the 200 is ACKed, the
   * audio connected). `srtp`: the offer is RTP/SAVP with an SDES key, and the phone speaks SRTP.
   */
  call(port: number, number: string, from = '+15557770000', { srtp = false } = {}): Promise<number> {
    const local = this.socket.address();
    this.dialog = {
      callId: randomUUID(),
      localUri: `sip:${from}@127.0.0.1`,
      localTag: randomUUID().slice(0, 8),
      remoteUri: `sip:${number}@127.0.0.1:${port}`,
      remoteTag: null,
      remoteTarget: `sip:${number}@127.0.0.1:${port}`,
      localAddress: `127.0.0.1:${local.port}`,
    };
    this.offered = srtp ? { ...OFFERED_CRYPTO, key: newSdesKey() } : null;
    const sdp = buildOffer(
      { address: '127.0.0.1', port: this.audio.localPort, sessionId: '1', version: 1 },
      srtp ? 'RTP/SAVP' : 'RTP/AVP',
      this.offered?.key ?? null,
    );
    const done = new Promise<number>((resolve) => (this.answered = resolve));
    this.send(buildInvite(this.dialog, newBranch(randomUUID()), [], sdp));
    return done;
  }

  async hangUp(): Promise<void> {
    this.send(buildBye(this.dialog, newBranch(randomUUID()), ++this.cseq));
  }

  /** A re-INVITE that holds the call (`a=sendonly`, `a=inactive`) or resumes it (`a=sendrecv`); resolves with the final status. */
  hold(direction: 'sendonly' | 'inactive' | 'sendrecv' = 'sendonly'): Promise<number> {
    const sdp = buildOffer(
      { address: '127.0.0.1', port: this.audio.localPort, sessionId: '1', version: 2 },
      'RTP/AVP',
      null,
    ).replace('a=sendrecv', `a=${direction}`);
    const done = new Promise<number>((resolve) => (this.answered = resolve));
    this.send(buildInvite(this.dialog, newBranch(randomUUID()), [], sdp, ++this.cseq));
    return done;
  }

  async close(): Promise<void> {
    await this.audio.close();
    await new Promise<void>((resolve) => this.socket.close(() => resolve()));
  }

  private receive(text: string): void {
    const message = parseSipMessage(text);
    if (!message) return;
    if (message.kind === 'request') {
      this.received.push(message);
      if (message.method === 'BYE') {
        this.send(buildResponse(message, 200, 'OK'));
        this.byeFromParley?.();
      }
      return;
    }
    if (headerOf(message, 'cseq')?.endsWith('INVITE') !== true || message.status < 200) return;
    this.received.push(message);
    if (message.status < 300) {
      this.dialog.remoteTag = tagOf(headerOf(message, 'to'));
      this.dialog.remoteTarget = uriOf(headerOf(message, 'contact')) ?? this.dialog.remoteTarget;
      const answer = parseSdp(message.body);
      const negotiated = answer ? readAnswer(answer, this.offered) : null;
      if (negotiated) this.audio.connect(negotiated);
    }
    const cseq = Number.parseInt(headerOf(message, 'cseq') ?? '1', 10);
    this.send(buildAck(this.dialog, this.dialog.remoteUri, newBranch(randomUUID()), message.status < 300, cseq));
    this.answered?.(message.status);
    this.answered = null;
  }

  private send(message: Parameters<typeof serialize>[0]): void {
    const [host, port] = this.dialog.remoteUri.replace(/^sip:[^@]*@/, '').split(':');
    this.socket.send(serialize(message), Number(port), host);
  }
}
