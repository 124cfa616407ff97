import { randomUUID } from 'node:crypto';
import dgram from 'node:dgram';
import {
  buildAck,
  buildBye,
  buildInvite,
  buildResponse,
  cseqOf,
  headerOf,
  newBranch,
  parseSipMessage,
  serialize,
  tagOf,
  uriOf,
  type DialogIds,
  type SipMessage,
  type SipRequest,
  type SipResponse,
} from '../../src/sip/sip-message';
import { buildAnswer, buildOffer, negotiateOffer, parseSdp, type SessionDescription } from '../../src/sip/sdp';
import type { NegotiatedAudio } from '../../src/voice/call-media.port';
import { RtpCallAudioFactory } from '../../src/voice/media/rtp-call-audio-factory';
import type { RtpSession } from '../../src/voice/media/rtp-session';
import { loadVoiceConfig } from '../../src/voice/voice-config';

/** One call the callee answered: its phone (an RtpSession, SRTP when the offer was RTP/SAVP) and its dialog. */
export interface AnsweredCall {
  invite: SipRequest;
  offer: SessionDescription;
  audio: RtpSession;
  negotiated: NegotiatedAudio;
  /** resolves when Parley hangs up (its BYE, answered 200) */
  hungUpByParley: Promise<void>;
}

/**
 * A small SIP user agent for tests, the callee of an outbound call over UDP on 127.0.0.1 (the
 * trunk Parley dials): Parley's own message builders and SDP answerer for the signalling, the
 * media side's RtpSession as the callee's phone. It answers each INVITE (180, 200 with the
 * answer), takes the ACK, answers Parley's BYE, and can send a re-INVITE (hold, resume) or BYE.
 */
export class TestSipCallee {
  /** every request Parley sent, and every response to the callee's own requests */
  readonly received: SipMessage[] = [];
  private call: (AnsweredCall & { dialog: DialogIds; peer: { port: number; address: string } }) | null = null;
  private waiting: ((call: AnsweredCall) => void) | null = null;
  private responses = new Map<number, (response: SipResponse) => void>();
  private cseq = 1;
  private sdpVersion = 1;
  private readonly answering = new Set<string>();

  private constructor(
    private readonly socket: dgram.Socket,
    private readonly factory: RtpCallAudioFactory,
  ) {
    socket.on('message', (data, from) => void this.receive(data.toString('utf8'), from));
  }

  static async open(rtpPorts: { min: number; max: number }): Promise<TestSipCallee> {
    const socket = dgram.createSocket('udp4');
    await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
    const factory = new RtpCallAudioFactory(
      loadVoiceConfig({ RTP_PORT_MIN: String(rtpPorts.min), RTP_PORT_MAX: String(rtpPorts.max) }),
    );
    return new TestSipCallee(socket, factory);
  }

  get port(): number {
    return this.socket.address().port;
  }

  /** The next call Parley places, once it is answered; bounded by `ms`. */
  answered(ms: number): Promise<AnsweredCall> {
    return bounded('an INVITE from Parley', new Promise((resolve) => (this.waiting = resolve)), ms);
  }

  /** A re-INVITE from the callee with its offer in `direction`; resolves with Parley's final response (ACKed). */
  async reinvite(
    direction: 'sendonly' | 'sendrecv' | 'inactive',
    ms: number,
    { plain = false } = {},
  ): Promise<SipResponse> {
    const call = this.current();
    const srtp = plain ? null : call.negotiated.srtp;
    const offer = buildOffer(
      { address: '127.0.0.1', port: call.audio.localPort, sessionId: '7', version: ++this.sdpVersion },
      srtp ? 'RTP/SAVP' : 'RTP/AVP',
      srtp?.localKey ?? null,
    ).replace('a=sendrecv', `a=${direction}`);
    const cseq = ++this.cseq;
    const done = new Promise<SipResponse>((resolve) => this.responses.set(cseq, resolve));
    this.send(buildInvite(call.dialog, newBranch(randomUUID()), [], offer, cseq));
    const response = await bounded(`Parley's answer to a re-INVITE (${direction})`, done, ms);
    this.send(buildAck(call.dialog, call.dialog.remoteTarget, newBranch(randomUUID()), response.status < 300, cseq));
    return response;
  }

  /** An in-dialog request without a body (UPDATE, INFO, OPTIONS); resolves with Parley's response. */
  async request(method: string, ms: number, headers: Array<[string, string]> = [], body = ''): Promise<SipResponse> {
    const call = this.current();
    const cseq = ++this.cseq;
    const done = new Promise<SipResponse>((resolve) => this.responses.set(cseq, resolve));
    const bye = buildBye(call.dialog, newBranch(randomUUID()), cseq);
    this.send({
      ...bye,
      method,
      headers: [
        ...bye.headers.map(([n, v]): [string, string] => (n === 'CSeq' ? [n, `${cseq} ${method}`] : [n, v])),
        ...headers,
      ],
      body,
    });
    return bounded(`Parley's answer to ${method}`, done, ms);
  }

  hangUp(): void {
    const call = this.current();
    this.send(buildBye(call.dialog, newBranch(randomUUID()), ++this.cseq));
  }

  async close(): Promise<void> {
    await this.call?.audio.close();
    await new Promise<void>((resolve) => this.socket.close(() => resolve()));
  }

  private current() {
    if (!this.call) throw new Error('no call answered yet');
    return this.call;
  }

  private async receive(text: string, from: dgram.RemoteInfo): Promise<void> {
    const message = parseSipMessage(text);
    if (!message) return;
    this.received.push(message);
    if (message.kind === 'response') {
      const cseq = cseqOf(message);
      if (cseq && message.status >= 200) this.responses.get(cseq.seq)?.(message);
      return;
    }
    if (message.method === 'INVITE' && tagOf(headerOf(message, 'to')) === null) return this.answer(message, from);
    if (message.method === 'ACK') return;
    this.reply(buildResponse(message, 200, 'OK'), from);
    if (message.method === 'BYE') this.onBye?.();
  }

  private onBye: (() => void) | null = null;

  /** 180, then 200 with the SDP answer; a retransmitted INVITE gets the same 200 again. */
  private async answer(invite: SipRequest, from: dgram.RemoteInfo): Promise<void> {
    const callId = headerOf(invite, 'call-id') ?? '';
    if (this.answering.has(callId)) return;
    this.answering.add(callId);
    const offer = parseSdp(invite.body);
    const verdict = offer ? negotiateOffer(offer) : null;
    if (!offer || !verdict?.ok) return this.reply(buildResponse(invite, 488, 'Not Acceptable Here'), from);
    await this.call?.audio.close();
    const audio = await this.factory.open('127.0.0.1');
    audio.connect(verdict.audio);
    const localTag = randomUUID().slice(0, 8);
    const extras = {
      toTag: localTag,
      headers: [['Contact', `<sip:callee@127.0.0.1:${this.port}>`]] as [string, string][],
    };
    this.reply(buildResponse(invite, 180, 'Ringing', extras), from);
    const sdp = buildAnswer(
      { address: '127.0.0.1', port: audio.localPort, sessionId: '7', version: 1 },
      offer,
      verdict,
    );
    this.reply(buildResponse(invite, 200, 'OK', { ...extras, sdp }), from);
    const dialog: DialogIds = {
      callId: headerOf(invite, 'call-id')!,
      localUri: uriOf(headerOf(invite, 'to'))!,
      localTag,
      remoteUri: uriOf(headerOf(invite, 'from'))!,
      remoteTag: tagOf(headerOf(invite, 'from')),
      remoteTarget: uriOf(headerOf(invite, 'contact'))!,
      localAddress: `127.0.0.1:${this.port}`,
    };
    const hungUpByParley = new Promise<void>((resolve) => (this.onBye = resolve));
    this.call = { invite, offer, audio, negotiated: verdict.audio, hungUpByParley, dialog, peer: from };
    this.cseq = 1;
    this.waiting?.(this.call);
    this.waiting = null;
  }

  private reply(response: SipResponse, to: { port: number; address: string }): void {
    this.socket.send(serialize(response), to.port, to.address);
  }

  /** In-dialog requests go where Parley's requests come from (its connected UDP socket). */
  private send(request: SipRequest): void {
    const peer = this.current().peer;
    this.socket.send(serialize(request), peer.port, peer.address);
  }
}

export function bounded<T>(what: string, promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout;
  return Promise.race([
    promise,
    new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms waiting for ${what}`)), ms);
      timer.unref();
    }),
  ]).finally(() => clearTimeout(timer));
}
