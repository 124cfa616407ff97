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
} from './sip-message';
import {
  ALLOW,
  answerInfo,
  answerOptions,
  answerReinvite,
  answerUpdate,
  DialogMedia,
  hasBody,
  InviteFinals,
  methodNotAllowed,
  T1_MS,
  T2_MS,
  takeAck,
  TRANSACTION_MS,
  type InDialogCall,
} from './in-dialog';
import { DomainError } from '../platform/errors/domain-error';
import type { CallAudio, CallAudioFactory, NegotiatedAudio } from '../voice/call-media.port';
import { drainSession } from '../voice/drain-session';
import type { VoiceCalls, VoiceSession } from '../voice/voice-calls.port';
import type { HungUpBy } from '../inbound-calls/inbound-call.decider';
import { callerNumber, calledNumber } from './sip-requests';
import type { SipPeer } from './sip-transport';

export { ALLOW, TRANSACTION_MS };

/** how long a call's end waits for the voice side to record the turn in hand (the caller hung up mid-answer) */
const DRAIN_MS = 10_000;

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
  /** a call the caller holds (a=sendonly/inactive) longer than this is hung up */
  holdLimitMs: number;
  /** called once the call is over and its last transaction can no longer need it */
  forget(callId: string): void;
}

/** ringing → answered (200 sent) → confirmed (ACKed); a refused call goes refused → done. */
type Phase = 'trying' | 'ringing' | 'answering' | 'answered' | 'confirmed' | 'refused' | 'done';

const unique = () => randomBytes(8).toString('hex');

/**
 * One inbound call as a SIP user agent server: the INVITE's server transaction (100, 180, then
 * 200 with the SDP answer, or a refusal; final responses retransmitted over UDP until ACKed), then
 * the dialog (re-INVITE or UPDATE for hold and resume, INFO, BYE from either side; the in-dialog
 * handling is shared with outbound calls, ./in-dialog.ts). The call itself (its ringing,
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
  /** whether the INVITE carried an offer Parley took (else ours goes in the 200) */
  private offered: NegotiatedAudio | null = null;
  private readonly media: DialogMedia;
  private readonly finals: InviteFinals;
  private cancelled = false;
  private stopping = false;
  private wake: (() => void) | null = null;
  private lastProvisional: string | null = null;
  private localCseq = 0;
  private bye: { branch: string; acked: boolean } | null = null;
  private readonly timers = new Set<NodeJS.Timeout>();
  /** the voice side's session, once attach resolves: drained before the conversation ends */
  private session: Promise<VoiceSession | void> | null = null;
  private holdTimer: NodeJS.Timeout | null = null;
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
    this.media = new DialogMedia({
      address: deps.publicHost,
      sessionId: String(Date.now()),
      port: () => this.audio?.localPort ?? null,
      offered: null,
      requireSrtp: false,
    });
    this.finals = new InviteFinals({
      send: (text) => this.peer.send(text),
      reliable: () => this.peer.transport !== 'UDP',
      after: (ms, action) => this.after(ms, action),
      over: () => this.phase === 'done',
      unacked: (status) => {
        if (this.phase === 'refused') return this.forgetSoon(0);
        if (status < 300 && (this.phase === 'answered' || this.phase === 'confirmed')) {
          this.deps.logger.warn({ callSid: this.callSid }, 'no ACK for the 200 OK: hanging up');
          this.hangUp('platform').catch((error: unknown) =>
            this.deps.logger.error({ err: error, callSid: this.callSid }, 'ending an inbound SIP call failed'),
          );
        }
      },
    });
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
    if (hasBody(this.invite)) {
      const type = headerOf(this.invite, 'content-type');
      if (type && !/^application\/sdp\b/i.test(type))
        return this.refuse(415, 'Unsupported Media Type', [['Accept', 'application/sdp']]);
      const taken = this.media.takeOffer(this.invite.body, false);
      if (!taken.ok) return this.refuse(taken.status, taken.reason, taken.headers);
      this.offered = taken.audio;
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
    const sdp = this.media.describe();
    if (this.offered) {
      this.audio?.connect(this.offered);
      this.watchHold(this.offered);
    }
    this.sendFinal(this.invite, 200, 'OK', { sdp, headers: this.dialogHeaders() });
    // the platform began stopping while the conversation started: the call is hung up at once
    if (this.stopping) return this.hangUp('platform');
    if (this.audio) {
      const call = ringing.call;
      this.session = this.deps.voice
        .attach({
          conversationId: call.callSid,
          accountId: call.accountId,
          agentId: call.agentId,
          direction: 'inbound',
          audio: this.audio,
          hangUp: () => this.hangUp(),
          ended: this.ended,
        })
        .catch((error: unknown) => {
          this.deps.logger.error({ err: error, callSid: call.callSid }, 'the voice side failed to take the call');
        });
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
    if (this.phase === 'refused') {
      if (this.finals.ack(cseqOf(ack)?.seq ?? -1)) this.forgetSoon(0);
      return;
    }
    // a delayed offer: we offered in the 200, the caller answers in the ACK
    if (!takeAck(ack, this.dialogCall())) return;
    if (this.phase === 'answered' && cseqOf(ack)!.seq === cseqOf(this.invite)!.seq) this.phase = 'confirmed';
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
        answerReinvite(request, this.dialogCall());
        return null;
      case 'UPDATE':
        return answerUpdate(request, this.dialogCall());
      case 'INFO':
        return answerInfo(request, this.dialogCall());
      case 'OPTIONS':
        return answerOptions(request);
      default:
        return methodNotAllowed(request);
    }
  }

  /** What the dialog handling shared with outbound calls sees of this one. */
  private dialogCall(): InDialogCall {
    return {
      finals: this.finals,
      media: this.media,
      state: () => (this.phase === 'answered' ? 'early' : this.phase === 'confirmed' ? 'confirmed' : 'gone'),
      dialogHeaders: () => this.dialogHeaders(),
      respond: (request, status, reason, extras, remember) => this.sendFinal(request, status, reason, extras, remember),
      connect: (audio) => this.connect(audio),
      resend: (text) => this.peer.send(text),
    };
  }

  /** A response to our BYE. */
  onResponse(response: SipResponse): void {
    if (cseqOf(response)?.method === 'BYE' && response.status >= 200 && this.bye) this.bye.acked = true;
  }

  /** Parley hangs up (the agent ended the call, the hold limit, the platform stops): a BYE, and the call ends. */
  async hangUp(hungUpBy: Exclude<HungUpBy, 'caller'> = 'agent'): Promise<void> {
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

  private connect(audio: NegotiatedAudio): void {
    try {
      this.audio?.connect(audio);
    } catch (error) {
      this.deps.logger.error({ err: error, callSid: this.callSid }, 'call audio refused the negotiated stream');
    }
    this.watchHold(audio);
  }

  /**
   * The caller holds the call (sendonly, inactive, c=0.0.0.0): a line and an RTP port are taken
   * while nobody talks, so after SIP_HOLD_LIMIT_S Parley hangs up (`hold-limit`). Resuming
   * (sendrecv) before then stops the count.
   */
  private watchHold(audio: NegotiatedAudio): void {
    const held = audio.direction === 'sendonly' || audio.direction === 'inactive';
    if (!held) {
      if (this.holdTimer) clearTimeout(this.holdTimer);
      this.holdTimer = null;
      return;
    }
    if (this.holdTimer) return;
    this.holdTimer = setTimeout(() => {
      this.holdTimer = null;
      this.deps.logger.info(
        { callSid: this.callSid, limitMs: this.deps.holdLimitMs },
        'call held too long: hanging up',
      );
      this.hangUp('hold-limit').catch((error: unknown) =>
        this.deps.logger.error({ err: error, callSid: this.callSid }, 'ending an inbound SIP call failed'),
      );
    }, this.deps.holdLimitMs);
    this.holdTimer.unref();
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

  /** A final response to an INVITE, with our tag: kept for its retransmissions and resent until ACKed (InviteFinals). */
  private sendFinal(
    request: SipRequest,
    status: number,
    reason: string,
    extras: ResponseExtras = {},
    remember = true,
  ): void {
    this.finals.send(request, buildResponse(request, status, reason, { toTag: this.localTag, ...extras }), remember);
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

  private async end(hungUpBy: HungUpBy): Promise<void> {
    if (this.phase === 'done') return;
    this.phase = 'done';
    if (this.holdTimer) clearTimeout(this.holdTimer);
    this.holdTimer = null;
    try {
      // a stopping platform hangs up at once; any other end first records the turn in hand
      if (hungUpBy !== 'platform')
        await drainSession(this.session, DRAIN_MS, (error) =>
          this.deps.logger.warn({ err: error, callSid: this.callSid }, 'voice: the turn in hand was not recorded'),
        );
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
