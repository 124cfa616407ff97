import { cseqOf, headerOf, uriOf, type SipRequest } from './sip-message';

/** What a request must carry for Parley to answer it at all (RFC 3261 §8.1.1); the reason for a 400 otherwise. */
export function malformation(request: SipRequest): string | null {
  for (const name of ['via', 'from', 'to', 'call-id', 'cseq']) {
    if (!headerOf(request, name)) return `Missing ${name === 'cseq' ? 'CSeq' : name} header`;
  }
  const cseq = cseqOf(request);
  if (!cseq || cseq.method !== request.method || cseq.seq > 2 ** 31) return 'Bad CSeq';
  if (!/^(sips?|tel):/i.test(request.uri)) return 'Bad Request-URI';
  const callId = headerOf(request, 'call-id')!;
  if (callId.length > 256) return 'Call-ID too long';
  // RFC 3261 §18.3: a length that is not a number, or longer than the datagram's body, is a 400
  const length = headerOf(request, 'content-length');
  if (length !== undefined) {
    if (!/^\d{1,10}$/.test(length)) return 'Bad Content-Length';
    if (Number(length) > Buffer.byteLength(request.body)) return 'Content-Length exceeds the message body';
  }
  return null;
}

/** The user part of a sip:/sips:/tel: URI, without parameters: `sip:+15550100001@host;user=phone` → `+15550100001`. */
export function userOf(uri: string | null): string | null {
  if (!uri) return null;
  const match = /^(?:sips?:([^@;?]+)@|tel:([^;?]+))/i.exec(uri);
  const user = match?.[1] ?? match?.[2];
  return user ? decodeURIComponentSafe(user) : null;
}

function decodeURIComponentSafe(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/**
 * The E.164 number a user part names: trunks send `+15550100001`, `15550100001` or with visual
 * separators (`+1-555-010-0001`, RFC 3966); null when it is no phone number.
 */
export function e164Of(user: string | null): string | null {
  if (!user) return null;
  const digits = user.replace(/[-.() ]/g, '');
  const match = /^\+?([1-9]\d{6,14})$/.exec(digits);
  return match ? `+${match[1]}` : null;
}

/** The number a call is for: the To URI's user, else the Request-URI's (a trunk may rewrite either). */
export function calledNumber(invite: SipRequest): string | null {
  return e164Of(userOf(uriOf(headerOf(invite, 'to')))) ?? e164Of(userOf(invite.uri));
}

/** Who calls: an E.164 number when the From user is one, `anonymous` otherwise (withheld, a SIP name). */
export function callerNumber(invite: SipRequest): string {
  return e164Of(userOf(uriOf(headerOf(invite, 'from')))) ?? 'anonymous';
}
