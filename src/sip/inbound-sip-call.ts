import { randomBytes } from 'node:crypto';
import type { Logger } from 'pino';
import type { CommandContext } from '../commands/command-context';
import type { InboundCallsService, Ringing } from '../inbound-calls/inbound-calls.service';
import {
  buildBye,
  buildResponse,
  contact,
  cseqOf,
  headerOf,
  newBranch,
  serialize,
  tagOf,
  uriOf,
  branchOf,
  type DialogIds,
  type ResponseExtras,
  type SipRequest,
  type SipResponse,
} from '../outbound-calls/sip/sip-message';
import { DomainError } from '../platform/errors/domain-error';
import type { CallAudio, CallAudioFactory, NegotiatedAudio } from '../voice/call-media.port';
import type { VoiceCalls } from '../voice/voice-calls.port';
import {
  buildAnswer,
  buildOffer,
  negotiateOffer,
  parseSdp,
  readAnswer,
  type OfferVerdict,
  type SessionDescription,
} from './sdp';
import { callerNumber, calledNumber } from './sip-requests';
import type { SipPeer } from './sip-transport';

/** RFC 3261 timers: T1 (RTT estimate), T2 (retransmission cap), 64·T1 (a transaction's life). */
export const T1_MS = 500;
const T2_MS = 4000;
export const TRANSACTION_MS = 64 * T1_MS;

export const ALLOW = 'INVITE, ACK, CANCEL, BYE, OPTIONS';

export interface InboundCallDeps {
  inbound: InboundCallsService;
  audio: CallAudioFactory | null;
  voice: VoiceCalls;
  logger: Logger;
  /** where the call's audio binds (the listen host) */
  mediaBindHost: string;
  /** the address put in Contact, Via and SDP */
  publicHost: string;
  publicPort: number;
  answerDelayMs: number;
  /** called once the call is over and its last transaction can no longer need it */
  forget(callId: string): void;
}

/** ringing → answered (200 sent) → confirmed (ACKed); a refused call goes refused → done. */
type Phase = 'trying' | 'ringing' | 'answering' | 'answered' | 'confirmed' | 'refused' | 'done';

const unique = () => randomBytes(8).toString('hex');
const sdpBody = (request: SipRequest) => request.body.trim().length > 0;

/**
 * One inbound call as a SIP user agent server: the INVITE's server transaction (100, 180, then
 * 200 with the SDP answer, or a refusal; final responses retransmitted over UDP until ACKed), then
 * the dialog (re-INVITE for hold and resume, BYE from either side). The call itself (its ringing,
 * line, conversation and end) goes through InboundCallsService, the same path as the simulator.
 */
export class InboundSipCall {
  readonly callId: string;
  readonly inviteBranch: string | null;
  private phase: Phase = 'trying';
  private readonly localTag = unique();
  private readonly context: CommandContext;
  private ringing: Ringing | null = null;
  private audio: CallAudio | null = null;
  private verdict: (OfferVerdict & { ok: true }) | null = null;
  private offer: SessionDescription | null = null;
  private readonly sessionId = String(Date.now());
  private sdpVersion = 1;
  private cancelled = false;
  private stopping = false;
  private wake: (() => void) | null = null;
  /** final responses to INVITEs (initial, re-INVITEs) by CSeq: resent to retransmissions, waiting for their ACK */
  private readonly finals = new Map<number, { branch: string | null; text: string; acked: boolean }>();
  private lastProvisional: string | null = null;
  private localCseq = 0;
  private bye: { branch: string; acked: boolean } | null = null;
  private readonly timers = new Set<NodeJS.Timeout>();
  private finished!: () => void;
  readonly ended = new Promise<void>((resolve) => (this.finished = resolve));

  constructor(
    private readonly invite: SipRequest,
    private peer: SipPeer,
    private readonly deps: InboundCallDeps,
  ) {
    this.callId = headerOf(invite, 'call-id')!;
    this.inviteBranch = branchOf(invite);
    this.context = { actor: 'system:sip', correlationId: this.callId };
  }

  /** Still ringing or talking: counts against the process's call capacity. */
  get active(): boolean {
    return this.phase !== 'refused' && this.phase !== 'done';
  }

  get callSid(): string | null {
    return this.ringing?.call.callSid ?? null;
  }

  /** Runs the INVITE to its final answer; never throws (every failure is a SIP answer). */
  async start(): Promise<void> {
    try {
      await this.run();
    } catch (error) {
      this.deps.logger.error({ err: error, callId: this.callId, callSid: this.callSid }, 'inbound SIP call failed');
      if (this.phase === 'trying' || this.phase === 'ringing' || this.phase === 'answering')
        this.refuse(500, 'Server Internal Error');
      await this.release();
    }
  }

  private async run(): Promise<void> {
    this.send(buildResponse(this.invite, 100, 'Trying'));
    if (sdpBody(this.invite)) {
      const type = headerOf(this.invite, 'content-type');
      if (type && !/^application\/sdp\b/i.test(type))
        return this.refuse(415, 'Unsupported Media Type', [['Accept', 'application/sdp']]);
      this.offer = parseSdp(this.invite.body);
      if (!this.offer) return this.refuse(400, 'Bad SDP');
      const verdict = negotiateOffer(this.offer);
      if (!verdict.ok) return this.refuse(488, 'Not Acceptable Here', [['Warning', `304 parley "${verdict.why}"`]]);
      this.verdict = verdict;
    }
    const to = calledNumber(this.invite);
    if (!to) return this.refuse(404, 'Not Found');
    // the audio endpoint first: a call Parley could not hear is refused before anything is recorded
    this.audio = this.deps.audio ? await this.deps.audio.open(this.deps.mediaBindHost) : null;
    let ringing;
    try {
      ringing = await this.deps.inbound.ring(callerNumber(this.invite), to, this.context);
    } catch (error) {
      if (error instanceof DomainError && error.status === 404) {
        await this.closeAudio();
        return this.refuse(404, 'Not Found');
      }
      throw error;
    }
    if (!ringing.ok) {
      await this.closeAudio();
      // the account's concurrent-call limit (contract §17)
      return this.refuse(486, 'Busy Here');
    }
    this.ringing = ringing;
    this.phase = 'ringing';
    this.lastProvisional = this.send(
      buildResponse(this.invite, 180, 'Ringing', { toTag: this.localTag, headers: [['Contact', this.contact()]] }),
    );
    if (this.deps.answerDelayMs > 0 && !this.cancelled && !this.stopping)
      await new Promise<void>((resolve) => {
        this.wake = resolve;
        this.after(this.deps.answerDelayMs, resolve);
      });
    if (this.cancelled || this.stopping) {
      await this.deps.inbound.cancel(ringing.call, this.context);
      await this.closeAudio();
      return this.cancelled ? this.refuse(487, 'Request Terminated') : this.refuse(503, 'Service Unavailable');
    }
    this.phase = 'answering';
    let answered;
    try {
      answered = await this.deps.inbound.answer(ringing, this.context);
    } catch (error) {
      // the agent's side refused to take the call (answer() already ended it and gave the line back)
      await this.closeAudio();
      if (error instanceof DomainError && error.status < 500) return this.refuse(603, 'Decline');
      throw error;
    }
    if (!answered.ok) {
      await this.closeAudio();
      return this.refuse(480, 'Temporarily Unavailable');
    }
    this.phase = 'answered';
    const sdp = this.describe();
    if (this.verdict) this.audio?.connect(this.verdict.audio);
    this.sendFinal(this.invite, 200, 'OK', { sdp, headers: this.dialogHeaders() });
    // the platform began stopping while the conversation started: the call is hung up at once
    if (this.stopping) return this.hangUp('platform');
    if (this.audio) {
      const call = ringing.call;
      this.deps.voice
        .attach({
          conversationId: call.callSid,
          accountId: call.accountId,
          agentId: call.agentId,
          direction: 'inbound',
          audio: this.audio,
          hangUp: () => this.hangUp(),
          ended: this.ended,
        })
        .catch((error: unknown) =>
          this.deps.logger.error({ err: error, callSid: call.callSid }, 'the voice side failed to take the call'),
        );
    }
  }

  /** A retransmitted initial INVITE: the same answer again (RFC 3261 §17.2.1). */
  onInviteRetransmission(): void {
    const text = this.finals.get(cseqOf(this.invite)!.seq)?.text ?? this.lastProvisional;
    if (text) this.peer.send(text);
  }

  /** CANCEL of our INVITE: answered by the server; stops the ringing if it is still ringing. */
  onCancel(): boolean {
    if (this.phase !== 'trying' && this.phase !== 'ringing') return false;
    this.cancelled = true;
    this.wake?.();
    return true;
  }

  onAck(ack: SipRequest): void {
    const final = this.finals.get(cseqOf(ack)?.seq ?? -1);
    if (!final || final.acked) return;
    final.acked = true;
    if (this.phase === 'answered' && cseqOf(ack)!.seq === cseqOf(this.invite)!.seq) this.phase = 'confirmed';
    if (this.phase === 'refused') return this.forgetSoon(0);
    // a delayed offer: we offered in the 200, the caller answers in the ACK
    if (!this.verdict && sdpBody(ack)) {
      const answer = parseSdp(ack.body);
      const audio = answer ? readAnswer(answer) : null;
      if (audio) this.connect(audio);
    }
  }

  /** A request inside the dialog (To carries our tag). Returns the response, or null when none is due. */
  onInDialog(request: SipRequest, peer: SipPeer): SipResponse | null {
    if (tagOf(headerOf(request, 'to')) !== this.localTag)
      return buildResponse(request, 481, 'Call/Transaction Does Not Exist');
    this.peer = peer;
    switch (request.method) {
      case 'BYE':
        if (this.phase !== 'answered' && this.phase !== 'confirmed')
          return buildResponse(request, 481, 'Call/Transaction Does Not Exist');
        this.end('caller').catch((error: unknown) =>
          this.deps.logger.error({ err: error, callSid: this.callSid }, 'ending an inbound SIP call failed'),
        );
        return buildResponse(request, 200, 'OK');
      case 'INVITE':
        this.reinvite(request);
        return null;
      case 'OPTIONS':
        return buildResponse(request, 200, 'OK', {
          headers: [
            ['Allow', ALLOW],
            ['Accept', 'application/sdp'],
          ],
        });
      default:
        return buildResponse(request, 405, 'Method Not Allowed', { headers: [['Allow', ALLOW]] });
    }
  }

  /** A response to our BYE. */
  onResponse(response: SipResponse): void {
    if (cseqOf(response)?.method === 'BYE' && response.status >= 200 && this.bye) this.bye.acked = true;
  }

  /** Parley hangs up (the agent ended the call, or the platform stops): a BYE, and the call ends. */
  async hangUp(hungUpBy: 'agent' | 'platform' = 'agent'): Promise<void> {
    if (this.phase !== 'answered' && this.phase !== 'confirmed') return;
    this.sendBye();
    await this.end(hungUpBy);
  }

  /** The platform stops: a ringing call is refused (503), a connected one hung up. */
  async stop(): Promise<void> {
    this.stopping = true;
    this.wake?.();
    if (this.phase === 'answered' || this.phase === 'confirmed') await this.hangUp('platform');
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
  }

  private reinvite(request: SipRequest): void {
    const branch = branchOf(request);
    const cseq = cseqOf(request)!.seq;
    const earlier = this.finals.get(cseq);
    if (earlier) {
      // the same re-INVITE again: its answer again; another one reusing a CSeq is out of order
      if (earlier.branch === branch) this.peer.send(earlier.text);
      else this.sendFinal(request, 500, 'Server Internal Error', { headers: [['Retry-After', '1']] }, false);
      return;
    }
    if (this.phase === 'answered' || [...this.finals.values()].some((f) => !f.acked && f.text.startsWith('SIP/2.0 2')))
      return this.sendFinal(request, 491, 'Request Pending');
    if (this.phase !== 'confirmed') return this.sendFinal(request, 481, 'Call/Transaction Does Not Exist');
    if (!sdpBody(request)) {
      // no offer: ours again in the 200, the answer comes in the ACK (§14.2)
      this.verdict = null;
      this.sdpVersion++;
      return this.sendFinal(request, 200, 'OK', { sdp: this.describe(), headers: this.dialogHeaders() });
    }
    const offer = parseSdp(request.body);
    if (!offer) return this.sendFinal(request, 400, 'Bad SDP');
    // our SDES key stays the call's: a hold does not re-key the stream
    const verdict = negotiateOffer(offer, undefined, this.verdict?.audio.srtp?.localKey);
    // a refused re-INVITE leaves the call as it was (§14.2)
    if (!verdict.ok)
      return this.sendFinal(request, 488, 'Not Acceptable Here', {
        headers: [['Warning', `304 parley "${verdict.why}"`]],
      });
    this.offer = offer;
    this.verdict = verdict;
    this.sdpVersion++;
    this.connect(verdict.audio);
    this.sendFinal(request, 200, 'OK', { sdp: this.describe(), headers: this.dialogHeaders() });
  }

  private connect(audio: NegotiatedAudio): void {
    try {
      this.audio?.connect(audio);
    } catch (error) {
      this.deps.logger.error({ err: error, callSid: this.callSid }, 'call audio refused the negotiated stream');
    }
  }

  /** Our SDP: the answer to the caller's offer, or (no offer) our own. */
  private describe(): string {
    const local = {
      address: this.deps.publicHost,
      port: this.audio?.localPort ?? 9,
      sessionId: this.sessionId,
      version: this.sdpVersion,
    };
    if (this.offer && this.verdict) {
      // no media side wired: signalling only, so the stream is answered inactive
      const verdict = this.audio
        ? this.verdict
        : { ...this.verdict, audio: { ...this.verdict.audio, direction: 'inactive' as const } };
      return buildAnswer(local, this.offer, verdict);
    }
    return buildOffer(local, 'RTP/AVP', null);
  }

  private contact(): string {
    return contact({ localAddress: `${this.deps.publicHost}:${this.deps.publicPort}`, transport: this.peer.transport });
  }

  private dialogHeaders(): Array<[string, string]> {
    return [
      ['Contact', this.contact()],
      ['Allow', ALLOW],
      ['User-Agent', 'Parley'],
    ];
  }

  private refuse(status: number, reason: string, headers: Array<[string, string]> = []): void {
    this.phase = 'refused';
    this.sendFinal(this.invite, status, reason, { headers });
    // everything the refusal records is recorded by now; only the ACK is still awaited
    this.finished();
  }

  /**
   * A final response to an INVITE: kept for its retransmissions, and over UDP sent again at T1,
   * 2·T1, … (capped at T2) until the ACK comes (§17.2.1, §13.3.1.4); no ACK within 64·T1 ends
   * the call (a 2xx: with a BYE).
   */
  private sendFinal(
    request: SipRequest,
    status: number,
    reason: string,
    extras: ResponseExtras = {},
    remember = true,
  ): void {
    const text = this.send(buildResponse(request, status, reason, { toTag: this.localTag, ...extras }));
    const sent = { branch: branchOf(request), text, acked: false };
    if (!remember) return;
    this.finals.set(cseqOf(request)!.seq, sent);
    if (this.peer.transport === 'UDP') {
      let interval = T1_MS;
      const again = () => {
        if (sent.acked || this.phase === 'done') return;
        this.peer.send(text);
        interval = Math.min(interval * 2, T2_MS);
        this.after(interval, again);
      };
      this.after(interval, again);
    }
    this.after(TRANSACTION_MS, () => {
      if (sent.acked) return;
      sent.acked = true;
      if (this.phase === 'refused') return this.forgetSoon(0);
      if (status < 300 && (this.phase === 'answered' || this.phase === 'confirmed')) {
        this.deps.logger.warn({ callSid: this.callSid }, 'no ACK for the 200 OK: hanging up');
        this.hangUp('platform').catch((error: unknown) =>
          this.deps.logger.error({ err: error, callSid: this.callSid }, 'ending an inbound SIP call failed'),
        );
      }
    });
  }

  private sendBye(): void {
    const d: DialogIds = {
      callId: this.callId,
      localUri: uriOf(headerOf(this.invite, 'to')) ?? this.invite.uri,
      localTag: this.localTag,
      remoteUri: uriOf(headerOf(this.invite, 'from')) ?? '',
      remoteTag: tagOf(headerOf(this.invite, 'from')),
      remoteTarget: uriOf(headerOf(this.invite, 'contact')) ?? uriOf(headerOf(this.invite, 'from')) ?? '',
      localAddress: `${this.deps.publicHost}:${this.deps.publicPort}`,
      transport: this.peer.transport,
    };
    this.localCseq++;
    const bye = buildBye(d, newBranch(unique()), this.localCseq);
    const sent = { branch: branchOf(bye)!, acked: false };
    this.bye = sent;
    const text = this.send(bye);
    if (this.peer.transport !== 'UDP') return;
    let interval = T1_MS;
    const again = () => {
      if (sent.acked) return;
      this.peer.send(text);
      interval = Math.min(interval * 2, T2_MS);
      this.after(interval, again);
    };
    this.after(interval, again);
    this.after(TRANSACTION_MS, () => (sent.acked = true));
  }

  private async end(hungUpBy: 'caller' | 'agent' | 'platform'): Promise<void> {
    if (this.phase === 'done') return;
    this.phase = 'done';
    try {
      if (this.ringing) await this.deps.inbound.finish(this.ringing.call, hungUpBy, this.context);
    } finally {
      await this.closeAudio();
      this.finished();
      // kept a while so a retransmitted BYE or 200 still finds its call
      this.forgetSoon(this.peer.transport === 'UDP' ? TRANSACTION_MS : 0);
    }
  }

  /** After a failure: the call's line and audio are given back whatever state it was in. */
  private async release(): Promise<void> {
    try {
      if (this.ringing) await this.deps.inbound.finish(this.ringing.call, 'platform', this.context);
    } catch (error) {
      this.deps.logger.error({ err: error, callSid: this.callSid }, 'releasing a failed inbound SIP call');
    }
    await this.closeAudio();
    this.phase = this.phase === 'refused' ? 'refused' : 'done';
    this.finished();
  }

  private async closeAudio(): Promise<void> {
    const audio = this.audio;
    this.audio = null;
    try {
      await audio?.close();
    } catch (error) {
      this.deps.logger.warn({ err: error, callSid: this.callSid }, 'closing call audio failed');
    }
  }

  private forgetSoon(ms: number): void {
    const timer = setTimeout(() => this.deps.forget(this.callId), ms);
    timer.unref();
  }

  private send(message: SipRequest | SipResponse): string {
    const text = serialize(message);
    this.peer.send(text);
    return text;
  }

  private after(ms: number, action: () => void): void {
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      action();
    }, ms);
    timer.unref();
    this.timers.add(timer);
  }
}
