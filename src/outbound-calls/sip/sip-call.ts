import { randomBytes } from 'node:crypto';
import { isIP } from 'node:net';
import type { Logger } from 'pino';
import { authorization, parseChallenge } from '../../sip/digest';
import {
  ALLOW,
  answerInfo,
  answerOptions,
  answerReinvite,
  answerUpdate,
  DialogMedia,
  InviteFinals,
  methodNotAllowed,
  takeAck,
  type InDialogCall,
} from '../../sip/in-dialog';
import { parseSdp, readAnswer, type OfferedKey } from '../../sip/sdp';
import { openChannel, type SipChannel } from '../../sip/sip-transport';
import type { CallAudio, CallAudioFactory, NegotiatedAudio } from '../../voice/call-media.port';
import { drainSession } from '../../voice/drain-session';
import type { VoiceCalls, VoiceSession } from '../../voice/voice-calls.port';
import type { CallProgress } from '../carrier.port';
import type { FailureReason, QueuedCall } from '../outbound-call.events';
import { metadataHeaders, sdpOffer } from './sdp';
import {
  branchOf,
  buildAck,
  buildBye,
  buildCancel,
  buildInvite,
  buildResponse,
  contact,
  cseqOf,
  headerOf,
  newBranch,
  parseSipMessage,
  serialize,
  tagOf,
  uriOf,
  type DialogIds,
  type ResponseExtras,
  type SipMessage,
  type SipRequest,
  type SipResponse,
} from '../../sip/sip-message';

export interface SipOptions {
  trunkHost: string;
  trunkPort: number;
  ringTimeoutS: number;
  /** without a media side: after the answer, how long to wait for the callee to hang up before the agent does */
  holdMs: number;
  transport?: 'udp' | 'tcp';
  /** digest credentials for a trunk that challenges; the password is never logged */
  username?: string | null;
  password?: string | null;
}

/** The call's audio and the voice side it is handed to once answered; no audio: signalling only. */
export interface SipVoice {
  audio: CallAudioFactory | null;
  voice: VoiceCalls | null;
}

/** RFC 3261 timers: T1 (RTT estimate), T2 (cap of non-INVITE retransmissions), 64·T1 (transaction timeout). */
const T1_MS = 500;
const T2_MS = 4000;
const TRANSACTION_TIMEOUT_MS = 64 * T1_MS;
/** after a CANCEL, how long to wait for the INVITE's final answer before giving up on it */
const CANCEL_WAIT_MS = 4000;
/** how long a call's end waits for the voice side to record the turn in hand (the callee hung up mid-answer) */
const DRAIN_MS = 10_000;

/** What a final failure response of the INVITE means for the call's status (contract §10). */
export function failureReasonFor(status: number): FailureReason {
  if (status === 486 || status === 600) return 'busy';
  if (status === 408 || status === 480 || status === 487) return 'no-answer';
  return 'rejected';
}

const unique = () => randomBytes(8).toString('hex');

type Phase = 'inviting' | 'cancelling' | 'connected' | 'hanging-up' | 'done';

/** A trunk may challenge an INVITE this many times (a stale nonce) before the call is given up. */
const MAX_CHALLENGES = 2;
/** answers to the callee's non-INVITE requests kept for their retransmissions (§17.2.2) */
const MAX_REMEMBERED = 32;

/**
 * One outbound call as a SIP user agent client, on its own connection to the trunk (a connected
 * UDP socket or a TCP connection, so every message on it is this call's). INVITE with an SDP offer
 * on the call audio's port (an inactive one without a media side) and the metadata as `X-`
 * headers; a 401/407 is answered with digest credentials; 1xx stop the retransmissions (180/183:
 * ringing); a 2xx is ACKed, the call connected and its audio handed to the voice side; a failure
 * is ACKed and mapped to a reason; no final answer within the ring timeout CANCELs (or, before any
 * provisional answer, gives up). Without audio, connected, it waits `holdMs` for the callee's BYE,
 * then sends its own. Inside the dialog the callee's re-INVITE (hold, resume), UPDATE and INFO are
 * answered as on inbound calls (../../sip/in-dialog.ts). Network timers are the wall clock's: a
 * SIP peer knows no other.
 */
export class SipCall {
  private channel: SipChannel | null = null;
  private audio: CallAudio | null = null;
  private inviteCseq = 1;
  private challenges = 0;
  private sdp = '';
  private offeredKey: OfferedKey | null = null;
  private sdpState!: DialogMedia;
  private audioConnected = false;
  /** the voice side's session, once attach resolves: drained before the call's end is recorded */
  private session: Promise<VoiceSession | void> | null = null;
  private readonly remembered = new Map<string, string>();
  private readonly finals = new InviteFinals({
    send: (text) => this.sendText(text),
    reliable: () => this.channel?.transport === 'TCP',
    after: (ms, action) => this.after(ms, action),
    over: () => this.phase === 'done',
    // a 2xx to the callee's re-INVITE never ACKed: the dialog is broken, so the call is hung up (§14.2)
    unacked: (status) => (status < 300 ? this.hangUp() : undefined),
  });
  private phase: Phase = 'inviting';
  private dialog!: DialogIds;
  private invite!: SipRequest;
  private inviteBranch = newBranch(unique());
  private provisional = false;
  private ackFor2xx: SipRequest | null = null;
  private bye: SipRequest | null = null;
  private readonly timers = new Set<NodeJS.Timeout>();
  private reports: Promise<void> = Promise.resolve();
  private finished!: () => void;
  readonly done = new Promise<void>((resolve) => (this.finished = resolve));

  constructor(
    private readonly call: QueuedCall,
    private readonly options: SipOptions,
    private readonly progress: CallProgress,
    private readonly logger: Logger,
    private readonly media: SipVoice = { audio: null, voice: null },
  ) {}

  async start(): Promise<void> {
    try {
      this.channel = await openChannel(
        this.options.transport === 'tcp' ? 'TCP' : 'UDP',
        this.options.trunkHost,
        this.options.trunkPort,
        (text) => this.onMessage(text),
        (error) => this.onSocketError(error),
      );
    } catch (error) {
      this.logger.warn({ err: error, callSid: this.call.callSid }, 'SIP trunk unreachable');
      return this.end('unreachable', null, null);
    }
    const local = { address: this.channel.localAddress, port: this.channel.localPort };
    const localHost = isIP(local.address) === 6 ? `[${local.address}]` : local.address;
    try {
      this.audio = this.media.audio ? await this.media.audio.open(local.address) : null;
    } catch (error) {
      this.logger.error({ err: error, callSid: this.call.callSid }, 'opening call audio failed');
      return this.end('error', null, null);
    }
    const trunk = isIP(this.options.trunkHost) === 6 ? `[${this.options.trunkHost}]` : this.options.trunkHost;
    const remoteUri = `sip:${this.call.toNumber}@${trunk}:${this.options.trunkPort}`;
    this.dialog = {
      callId: `${this.call.callSid}@parley`,
      localUri: `sip:${this.call.fromNumber}@${localHost}`,
      localTag: unique(),
      remoteUri,
      remoteTag: null,
      remoteTarget: remoteUri,
      localAddress: `${localHost}:${local.port}`,
      transport: this.channel.transport,
    };
    const sessionId = String(Date.now());
    const offer = sdpOffer(local.address, sessionId, this.call.encryption, this.audio?.localPort ?? null);
    this.sdp = offer.sdp;
    this.offeredKey = offer.offered;
    this.sdpState = new DialogMedia({
      address: local.address,
      sessionId,
      port: () => this.audio?.localPort ?? null,
      offered: offer.offered,
      // the call asked for SRTP: the callee may not take it on in plain RTP
      requireSrtp: offer.offered !== null,
    });
    this.invite = buildInvite(this.dialog, this.inviteBranch, metadataHeaders(this.call.metadata), this.sdp);
    this.report(() => this.progress.dialing(this.call.callSid));
    this.sendInvite();
    // no answer at all to the INVITE: the far end is not there
    this.after(TRANSACTION_TIMEOUT_MS, () => {
      if (this.phase === 'inviting' && !this.provisional) this.end('no-answer', null, null);
    });
    this.after(this.options.ringTimeoutS * 1000, () => this.ringTimeout());
  }

  /** Shutdown: hang up what can be hung up, report the call over, close the socket. */
  async abort(): Promise<void> {
    if (this.phase === 'connected') this.send(buildBye(this.dialog, newBranch(unique()), this.inviteCseq + 1));
    else if (this.phase === 'inviting' && this.provisional)
      this.send(buildCancel(this.dialog, this.invite.uri, this.inviteBranch, this.inviteCseq));
    this.end('error', this.phase === 'connected' ? 'agent' : null, null);
    await this.done;
  }

  /** The INVITE, retransmitted over UDP until the trunk says anything (over TCP the stream is reliable). */
  private sendInvite(): void {
    const invite = this.invite;
    const pending = () => this.phase === 'inviting' && !this.provisional && this.invite === invite;
    if (this.channel?.transport === 'TCP') this.send(invite);
    else this.retransmit(invite, pending, false);
  }

  /**
   * 401/407: the trunk wants digest credentials (RFC 3261 §22.2). The failure is ACKed like any
   * other; the INVITE goes again with the next CSeq, a new branch and the answer to the challenge.
   */
  private answerChallenge(response: SipResponse): boolean {
    const { username, password } = this.options;
    if (!username || !password || this.challenges >= MAX_CHALLENGES) return false;
    const proxy = response.status === 407;
    const challenge = parseChallenge(headerOf(response, proxy ? 'proxy-authenticate' : 'www-authenticate'));
    if (!challenge) return false;
    this.challenges++;
    this.inviteCseq++;
    this.inviteBranch = newBranch(unique());
    const credentials = authorization(challenge, { username, password }, 'INVITE', this.invite.uri);
    this.invite = buildInvite(
      this.dialog,
      this.inviteBranch,
      [...metadataHeaders(this.call.metadata), [proxy ? 'Proxy-Authorization' : 'Authorization', credentials]],
      this.sdp,
      this.inviteCseq,
    );
    this.provisional = false;
    this.sendInvite();
    return true;
  }

  private onSocketError(error: Error): void {
    this.logger.warn({ err: error, callSid: this.call.callSid, phase: this.phase }, 'SIP socket error');
    if (this.phase === 'inviting' && !this.provisional) this.end('unreachable', null, null);
  }

  private onMessage(text: string): void {
    const message = parseSipMessage(text);
    if (!message || headerOf(message, 'call-id') !== this.dialog.callId) return;
    if (message.kind === 'request') this.onRequest(message);
    else this.onResponse(message);
  }

  private onRequest(request: SipRequest): void {
    const cseq = cseqOf(request);
    if (!cseq) return;
    if (request.method === 'ACK') {
      takeAck(request, this.dialogCall());
      return;
    }
    // the callee's requests inside our dialog carry our tag in To
    if (tagOf(headerOf(request, 'to')) !== this.dialog.localTag)
      return this.send(buildResponse(request, 481, 'Call/Transaction Does Not Exist'));
    if (request.method === 'INVITE') return answerReinvite(request, this.dialogCall());
    const key = `${branchOf(request)}|${request.method}|${cseq.seq}`;
    const again = this.remembered.get(key);
    if (again) return this.sendText(again);
    this.answer(key, this.inDialog(request));
  }

  private inDialog(request: SipRequest): SipResponse {
    switch (request.method) {
      case 'BYE':
        if (this.phase === 'connected' || this.phase === 'hanging-up') this.end('error', 'callee', null);
        return buildResponse(request, 200, 'OK');
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

  /** Answers a non-INVITE request and keeps the answer for its retransmissions. */
  private answer(key: string, response: SipResponse): void {
    const text = serialize(response);
    this.sendText(text);
    if (this.remembered.size >= MAX_REMEMBERED) this.remembered.delete(this.remembered.keys().next().value!);
    this.remembered.set(key, text);
  }

  /** What the dialog handling shared with inbound calls sees of this one. */
  private dialogCall(): InDialogCall {
    return {
      finals: this.finals,
      media: this.sdpState,
      state: () => (this.phase === 'connected' ? 'confirmed' : 'gone'),
      dialogHeaders: () => [
        ['Contact', contact(this.dialog)],
        ['Allow', ALLOW],
        ['User-Agent', 'Parley'],
      ],
      respond: (request: SipRequest, status: number, reason: string, extras?: ResponseExtras, remember?: boolean) => {
        this.finals.send(request, buildResponse(request, status, reason, extras), remember);
      },
      connect: (audio: NegotiatedAudio) => {
        // a call that got no stream at the answer stays without audio (it is hung up after SIP_HOLD_MS)
        if (!this.audioConnected) return;
        try {
          this.audio?.connect(audio);
        } catch (error) {
          this.logger.error({ err: error, callSid: this.call.callSid }, 'call audio refused the negotiated stream');
        }
      },
      resend: (text: string) => this.sendText(text),
    };
  }

  private onResponse(response: SipResponse): void {
    const cseq = cseqOf(response);
    if (!cseq) return;
    if (cseq.method === 'INVITE') return this.onInviteResponse(response);
    if (cseq.method === 'BYE' && response.status >= 200 && this.phase === 'hanging-up')
      this.end('error', 'agent', null);
    // CANCEL's own 200 changes nothing: the INVITE's 487 is what ends the attempt
  }

  private onInviteResponse(response: SipResponse): void {
    const seq = cseqOf(response)!.seq;
    if (seq !== this.inviteCseq) {
      // a retransmitted challenge of an earlier INVITE: ACK it again, nothing else
      if (response.status >= 300)
        this.send(
          buildAck(
            { ...this.dialog, remoteTag: tagOf(headerOf(response, 'to')) },
            this.invite.uri,
            branchOf(response) ?? this.inviteBranch,
            false,
            seq,
          ),
        );
      return;
    }
    if (response.status < 200) {
      if (this.phase !== 'inviting' && this.phase !== 'cancelling') return;
      this.provisional = true;
      if (response.status === 180 || response.status === 183)
        this.report(() => this.progress.ringing(this.call.callSid));
      return;
    }
    const tag = tagOf(headerOf(response, 'to'));
    if (response.status < 300) {
      // a retransmitted 200: our ACK was lost
      if (this.ackFor2xx) return this.send(this.ackFor2xx);
      if (this.phase === 'done') return;
      this.dialog.remoteTag = tag;
      this.dialog.remoteTarget = uriOf(headerOf(response, 'contact')) ?? this.dialog.remoteTarget;
      this.ackFor2xx = buildAck(this.dialog, this.invite.uri, newBranch(unique()), true, this.inviteCseq);
      this.send(this.ackFor2xx);
      const cancelled = this.phase === 'cancelling';
      this.phase = 'connected';
      this.report(() => this.progress.answered(this.call.callSid));
      // answered just as we gave up ringing: the line is open, so it is hung up properly
      if (cancelled) return this.hangUp();
      if (this.audio) return this.connectAudio(response);
      // no media: the greeting would play here; the callee may hang up first
      this.after(this.options.holdMs, () => this.hangUp());
      return;
    }
    // failure: ACK it within its transaction (also each retransmission of it)
    this.send(
      buildAck(
        { ...this.dialog, remoteTag: tag },
        this.invite.uri,
        branchOf(response) ?? this.inviteBranch,
        false,
        this.inviteCseq,
      ),
    );
    if (
      (response.status === 401 || response.status === 407) &&
      this.phase === 'inviting' &&
      this.answerChallenge(response)
    )
      return;
    this.dialog.remoteTag ??= tag;
    if (this.phase === 'inviting' || this.phase === 'cancelling')
      this.end(failureReasonFor(response.status), null, response.status);
  }

  /** The callee's answer says where its RTP goes: the call audio connects there and the voice side takes the call. */
  private connectAudio(response: SipResponse): void {
    const answer = parseSdp(response.body);
    const negotiated = answer ? readAnswer(answer, this.offeredKey) : null;
    if (!negotiated) {
      // an answer that does not keep our profile (RTP/AVP to an SRTP offer, or our SDES key
      // refused) or no G.711: the call carries no audio and goes on as a signalling-only call would
      this.logger.warn(
        { callSid: this.call.callSid, srtp: this.offeredKey !== null },
        'the callee answered without a G.711 stream in the profile Parley offered: no audio on this call',
      );
      this.after(this.options.holdMs, () => this.hangUp());
      return;
    }
    const audio = this.audio!;
    audio.connect(negotiated);
    this.audioConnected = true;
    this.session =
      this.media.voice
        ?.attach({
          conversationId: this.call.callSid,
          accountId: this.call.accountId,
          agentId: this.call.agentId,
          direction: 'outbound',
          audio,
          hangUp: async () => this.hangUp(),
          ended: this.done,
        })
        .catch((error: unknown) => {
          this.logger.error({ err: error, callSid: this.call.callSid }, 'the voice side failed to take the call');
        }) ?? null;
  }

  private ringTimeout(): void {
    if (this.phase !== 'inviting') return;
    if (!this.provisional) return this.end('no-answer', null, null);
    // a CANCEL is only allowed once the callee has said something (RFC 3261 §9.1)
    this.phase = 'cancelling';
    const cancel = buildCancel(this.dialog, this.invite.uri, this.inviteBranch, this.inviteCseq);
    this.retransmit(cancel, () => this.phase === 'cancelling', true);
    this.after(CANCEL_WAIT_MS, () => {
      if (this.phase === 'cancelling') this.end('no-answer', null, null);
    });
  }

  private hangUp(): void {
    if (this.phase !== 'connected') return;
    this.phase = 'hanging-up';
    this.bye = buildBye(this.dialog, newBranch(unique()), this.inviteCseq + 1);
    this.retransmit(this.bye, () => this.phase === 'hanging-up', true);
    // no answer to the BYE: the dialog is over for us anyway
    this.after(TRANSACTION_TIMEOUT_MS, () => {
      if (this.phase === 'hanging-up') this.end('error', 'agent', null);
    });
  }

  private end(reason: FailureReason, hungUpBy: 'callee' | 'agent' | null, sipStatus: number | null): void {
    if (this.phase === 'done') return;
    this.phase = 'done';
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
    this.report(async () => {
      // the callee hung up mid-answer: the turn in hand is recorded before the conversation ends
      if (hungUpBy === 'callee')
        await drainSession(this.session, DRAIN_MS, (error) =>
          this.logger.warn({ err: error, callSid: this.call.callSid }, 'voice: the turn in hand was not recorded'),
        );
      await this.progress.ended(this.call.callSid, { reason, hungUpBy, sipStatus });
    });
    // linger briefly so a retransmitted final response still gets its ACK, then close
    const linger = setTimeout(
      () => {
        this.channel?.close();
        const audio = this.audio;
        this.audio = null;
        void Promise.resolve(audio?.close())
          .catch((error: unknown) =>
            this.logger.warn({ err: error, callSid: this.call.callSid }, 'closing call audio failed'),
          )
          .finally(() => this.reports.finally(() => this.finished()));
      },
      sipStatus !== null || hungUpBy === 'callee' ? T1_MS : 0,
    );
    linger.unref();
  }

  /** Sends now, then (over UDP) again at T1, 2·T1, … (capped at T2 for non-INVITE) while `pending()` holds. */
  private retransmit(message: SipMessage, pending: () => boolean, capped: boolean): void {
    this.send(message);
    if (this.channel?.transport === 'TCP') return;
    let interval = T1_MS;
    const again = () => {
      if (!pending()) return;
      this.send(message);
      interval = capped ? Math.min(interval * 2, T2_MS) : interval * 2;
      this.after(interval, again);
    };
    this.after(interval, again);
  }

  private after(ms: number, action: () => void): void {
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      action();
    }, ms);
    this.timers.add(timer);
  }

  private send(message: SipMessage): void {
    this.sendText(serialize(message));
  }

  private sendText(text: string): void {
    try {
      this.channel?.send(text);
    } catch (error) {
      this.logger.warn({ err: error, callSid: this.call.callSid }, 'SIP send failed');
    }
  }

  /** Reports in order, one after the other; a failed report is logged (the watchdog ends a call whose end was lost). */
  private report(action: () => Promise<void>): void {
    this.reports = this.reports
      .then(action)
      .catch((error: unknown) =>
        this.logger.error({ err: error, callSid: this.call.callSid }, 'recording SIP call progress failed'),
      );
  }
}
