import {
  branchOf,
  buildResponse,
  cseqOf,
  headerOf,
  serialize,
  type ResponseExtras,
  type SipRequest,
  type SipResponse,
} from './sip-message';
import type { NegotiatedAudio } from '../voice/call-media.port';
import {
  buildAnswer,
  buildOffer,
  negotiateOffer,
  parseSdp,
  readAnswer,
  type OfferedKey,
  type OfferVerdict,
  type SessionDescription,
} from './sdp';

/**
 * What a call does inside its dialog, whichever side placed it: inbound calls (InboundSipCall)
 * and outbound ones (SipCall) answer the far end's re-INVITE (hold and resume), UPDATE (RFC 3311)
 * and INFO (RFC 6086) the same way, with the offer/answer state of the call's one audio stream
 * (DialogMedia) and the INVITE server transactions' final responses (InviteFinals).
 */

/** What a SIP call of Parley's accepts inside a dialog (the `Allow` header). */
export const ALLOW = 'INVITE, ACK, CANCEL, BYE, OPTIONS, UPDATE, INFO';

/** RFC 3261 timers: T1 (RTT estimate), T2 (retransmission cap), 64·T1 (a transaction's life). */
export const T1_MS = 500;
export const T2_MS = 4000;
export const TRANSACTION_MS = 64 * T1_MS;

export const hasBody = (request: SipRequest) => request.body.trim().length > 0;

type Accepted = OfferVerdict & { ok: true };
export type Refusal = { ok: false; status: 400 | 488; reason: string; headers: Array<[string, string]> };

export interface DialogMediaOptions {
  /** the address in our SDP's c= line */
  address: string;
  sessionId: string;
  /** the call audio's RTP port, null without a media side (the stream is then answered inactive) */
  port: () => number | null;
  /** our own offers' profile: the SDES key an RTP/SAVP offer carries, null for RTP/AVP */
  offered: OfferedKey | null;
  /** an SRTP call refuses an offer to go on in plain RTP (a downgrade) */
  requireSrtp: boolean;
}

/**
 * The offer/answer state of a call's audio stream (RFC 3264) as its dialog goes on: the far end's
 * last accepted offer and our answer, or our own offer. Our SDES key stays the call's across
 * re-offers (a hold does not re-key the stream); each new description bumps the o= version.
 */
export class DialogMedia {
  private offer: SessionDescription | null = null;
  private accepted: Accepted | null = null;
  private version = 1;
  private localKey: string | undefined;

  constructor(private readonly options: DialogMediaOptions) {
    this.localKey = options.offered?.key;
  }

  /** whether the far end's offer is what the stream runs on (else ours, or none yet) */
  get answering(): boolean {
    return this.accepted !== null;
  }

  /** The far end's offer (an initial INVITE, a re-INVITE, an UPDATE): the stream it settles, or why not (it leaves the call as it was). */
  takeOffer(body: string, renewed: boolean): { ok: true; audio: NegotiatedAudio } | Refusal {
    const offer = parseSdp(body);
    if (!offer) return { ok: false, status: 400, reason: 'Bad SDP', headers: [] };
    const verdict = negotiateOffer(offer, undefined, this.localKey);
    const why = !verdict.ok
      ? verdict.why
      : this.options.requireSrtp && !verdict.audio.srtp
        ? 'the call is SRTP: a plain RTP/AVP stream would downgrade it'
        : null;
    if (why || !verdict.ok)
      return { ok: false, status: 488, reason: 'Not Acceptable Here', headers: [['Warning', `304 parley "${why}"`]] };
    this.offer = offer;
    this.accepted = verdict;
    this.localKey = verdict.audio.srtp?.localKey ?? this.localKey;
    if (renewed) this.version++;
    return { ok: true, audio: verdict.audio };
  }

  /** A re-INVITE without an offer: ours goes in the 200 and the answer comes in the ACK (RFC 3261 §14.2). */
  offerAnew(): string {
    this.accepted = null;
    this.version++;
    return this.describe();
  }

  /** The far end's answer (in an ACK) to our offer. */
  takeAnswer(body: string): NegotiatedAudio | null {
    const answer = parseSdp(body);
    const offered = this.options.offered && this.localKey ? { ...this.options.offered, key: this.localKey } : null;
    return answer ? readAnswer(answer, offered) : null;
  }

  /** Our SDP: the answer to the far end's offer, or (none taken) our own offer. */
  describe(): string {
    const port = this.options.port();
    const local = {
      address: this.options.address,
      port: port ?? 9,
      sessionId: this.options.sessionId,
      version: this.version,
    };
    if (this.offer && this.accepted) {
      // no media side wired: signalling only, so the stream is answered inactive
      const verdict =
        port !== null
          ? this.accepted
          : { ...this.accepted, audio: { ...this.accepted.audio, direction: 'inactive' as const } };
      return buildAnswer(local, this.offer, verdict);
    }
    const offered = this.options.offered;
    return buildOffer(local, offered ? 'RTP/SAVP' : 'RTP/AVP', offered ? (this.localKey ?? offered.key) : null);
  }
}

interface Final {
  branch: string | null;
  status: number;
  text: string;
  acked: boolean;
}

export interface FinalsIo {
  send(text: string): void;
  /** over TCP nothing is retransmitted */
  reliable(): boolean;
  /** runs `action` after `ms` unless the call is over first */
  after(ms: number, action: () => void): void;
  /** the call is over: retransmissions stop */
  over(): boolean;
  /** a final response never ACKed within 64·T1 (a 2xx: the call should be hung up) */
  unacked(status: number): void;
}

/**
 * Final responses to the INVITEs a call received (its initial one, re-INVITEs), by CSeq: resent
 * to a retransmitted INVITE, and over UDP sent again at T1, 2·T1, … (capped at T2) until the ACK
 * comes (RFC 3261 §17.2.1, §13.3.1.4).
 */
export class InviteFinals {
  private readonly finals = new Map<number, Final>();

  constructor(private readonly io: FinalsIo) {}

  get(seq: number): Final | undefined {
    return this.finals.get(seq);
  }

  /** a 2xx not ACKed yet: a new offer now would cross it (491) */
  get pending2xx(): boolean {
    return [...this.finals.values()].some((f) => !f.acked && f.status < 300);
  }

  /** Sends `response` to `request`; remembered (and retransmitted until ACKed) unless `remember` is false. */
  send(request: SipRequest, response: SipResponse, remember = true): string {
    const text = serialize(response);
    this.io.send(text);
    if (!remember) return text;
    const sent: Final = { branch: branchOf(request), status: response.status, text, acked: false };
    this.finals.set(cseqOf(request)!.seq, sent);
    if (!this.io.reliable()) {
      let interval = T1_MS;
      const again = () => {
        if (sent.acked || this.io.over()) return;
        this.io.send(text);
        interval = Math.min(interval * 2, T2_MS);
        this.io.after(interval, again);
      };
      this.io.after(interval, again);
    }
    this.io.after(TRANSACTION_MS, () => {
      if (sent.acked) return;
      sent.acked = true;
      this.io.unacked(response.status);
    });
    return text;
  }

  /** The ACK of the final response to INVITE `seq`; the final when it was waiting for it, else null. */
  ack(seq: number): Final | null {
    const final = this.finals.get(seq);
    if (!final || final.acked) return null;
    final.acked = true;
    return final;
  }
}

/** What the shared handlers need of a call. */
export interface InDialogCall {
  finals: InviteFinals;
  media: DialogMedia;
  /** `early`: the initial INVITE's 2xx is not ACKed yet; `confirmed`: the dialog is up; `gone`: no dialog (over, or not yet) */
  state(): 'early' | 'confirmed' | 'gone';
  /** Contact, Allow, User-Agent of our 2xx responses */
  dialogHeaders(): Array<[string, string]>;
  /** a final response to an INVITE of the dialog, with our tag (the caller builds it with buildResponse) */
  respond(request: SipRequest, status: number, reason: string, extras?: ResponseExtras, remember?: boolean): void;
  /** points the call audio at the newly negotiated stream */
  connect(audio: NegotiatedAudio): void;
  /** resends a final response already sent */
  resend(text: string): void;
}

/**
 * A re-INVITE (RFC 3261 §14.2): a retransmission gets the same answer; one crossing a pending
 * 2xx gets 491; without an offer ours goes in the 200; an offer Parley cannot take is refused
 * (488) and leaves the call as it was; otherwise the call audio moves to the new stream (hold:
 * `sendonly` answered `recvonly`; resume: `sendrecv`).
 */
export function answerReinvite(request: SipRequest, call: InDialogCall): void {
  const seq = cseqOf(request)!.seq;
  const earlier = call.finals.get(seq);
  if (earlier) {
    // the same re-INVITE again: its answer again; another one reusing a CSeq is out of order
    if (earlier.branch === branchOf(request)) call.resend(earlier.text);
    else call.respond(request, 500, 'Server Internal Error', { headers: [['Retry-After', '1']] }, false);
    return;
  }
  const state = call.state();
  if (state === 'early' || call.finals.pending2xx) return call.respond(request, 491, 'Request Pending');
  if (state !== 'confirmed') return call.respond(request, 481, 'Call/Transaction Does Not Exist');
  if (!hasBody(request))
    return call.respond(request, 200, 'OK', { sdp: call.media.offerAnew(), headers: call.dialogHeaders() });
  const taken = call.media.takeOffer(request.body, true);
  if (!taken.ok) return call.respond(request, taken.status, taken.reason, { headers: taken.headers });
  call.connect(taken.audio);
  call.respond(request, 200, 'OK', { sdp: call.media.describe(), headers: call.dialogHeaders() });
}

/** The ACK of a final response to an INVITE of the dialog; a delayed offer's answer moves the call audio. */
export function takeAck(ack: SipRequest, call: Pick<InDialogCall, 'finals' | 'media' | 'connect'>): Final | null {
  const final = call.finals.ack(cseqOf(ack)?.seq ?? -1);
  if (final && final.status < 300 && !call.media.answering && hasBody(ack)) {
    const audio = call.media.takeAnswer(ack.body);
    if (audio) call.connect(audio);
  }
  return final;
}

/**
 * An UPDATE (RFC 3311): without a body a refresh (200); with an offer, answered at once in its
 * 200, or 491 while an offer of a re-INVITE is still open, 488/400 when it cannot be taken.
 */
export function answerUpdate(request: SipRequest, call: InDialogCall): SipResponse {
  if (call.state() === 'gone') return buildResponse(request, 481, 'Call/Transaction Does Not Exist');
  if (!hasBody(request)) return buildResponse(request, 200, 'OK', { headers: call.dialogHeaders() });
  const type = headerOf(request, 'content-type');
  if (type && !/^application\/sdp\b/i.test(type))
    return buildResponse(request, 415, 'Unsupported Media Type', { headers: [['Accept', 'application/sdp']] });
  if (call.finals.pending2xx) return buildResponse(request, 491, 'Request Pending');
  const taken = call.media.takeOffer(request.body, true);
  if (!taken.ok) return buildResponse(request, taken.status, taken.reason, { headers: taken.headers });
  call.connect(taken.audio);
  return buildResponse(request, 200, 'OK', { sdp: call.media.describe(), headers: call.dialogHeaders() });
}

/**
 * INFO: a legacy one (no Info-Package, e.g. a trunk's SIP INFO DTMF) is acknowledged with 200
 * and otherwise ignored: digits reach Parley as RFC 4733 events on the RTP stream. Parley
 * supports no Info Package, so one naming a package gets 469 (RFC 6086 §4.2.2).
 */
export function answerInfo(request: SipRequest, call: Pick<InDialogCall, 'state'>): SipResponse {
  if (call.state() === 'gone') return buildResponse(request, 481, 'Call/Transaction Does Not Exist');
  if (headerOf(request, 'info-package'))
    return buildResponse(request, 469, 'Bad Info Package', { headers: [['Recv-Info', '']] });
  return buildResponse(request, 200, 'OK');
}

/** OPTIONS inside or outside a dialog: what Parley can do. */
export function answerOptions(request: SipRequest): SipResponse {
  return buildResponse(request, 200, 'OK', {
    headers: [
      ['Allow', ALLOW],
      ['Accept', 'application/sdp'],
    ],
  });
}

export function methodNotAllowed(request: SipRequest): SipResponse {
  return buildResponse(request, 405, 'Method Not Allowed', { headers: [['Allow', ALLOW]] });
}
