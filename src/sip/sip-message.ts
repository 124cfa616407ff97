/**
 * The few SIP messages (RFC 3261) an outbound user agent needs, as text in and out: no sockets,
 * no timers. Only what this UA sends and must understand is modelled.
 */

export interface SipRequest {
  kind: 'request';
  method: string;
  uri: string;
  headers: Array<[string, string]>;
  body: string;
}

export interface SipResponse {
  kind: 'response';
  status: number;
  reason: string;
  headers: Array<[string, string]>;
  body: string;
}

export type SipMessage = SipRequest | SipResponse;

/** RFC 3261 §7.3.3 compact forms. */
const COMPACT: Record<string, string> = {
  v: 'via',
  f: 'from',
  t: 'to',
  i: 'call-id',
  m: 'contact',
  l: 'content-length',
  c: 'content-type',
  k: 'supported',
  s: 'subject',
  e: 'content-encoding',
};

const canonical = (name: string) => {
  const lower = name.trim().toLowerCase();
  return COMPACT[lower] ?? lower;
};

/** Parses one datagram; null when it is not a SIP message (a keep-alive, noise). */
export function parseSipMessage(text: string): SipMessage | null {
  const split = /\r?\n\r?\n/.exec(text);
  const head = split ? text.slice(0, split.index) : text;
  let body = split ? text.slice(split.index + split[0].length) : '';
  const lines = head.split(/\r?\n/);
  const start = lines.shift() ?? '';
  const headers: Array<[string, string]> = [];
  for (const line of lines) {
    if (/^[ \t]/.test(line) && headers.length > 0) {
      // a folded continuation of the previous header
      headers[headers.length - 1][1] += ` ${line.trim()}`;
      continue;
    }
    const colon = line.indexOf(':');
    if (colon <= 0) continue;
    headers.push([line.slice(0, colon).trim(), line.slice(colon + 1).trim()]);
  }
  const length = headerOf({ headers }, 'content-length');
  if (length !== undefined && /^\d+$/.test(length)) body = Buffer.from(body).subarray(0, Number(length)).toString();
  const response = /^SIP\/2\.0 (\d{3}) ?(.*)$/.exec(start);
  if (response) return { kind: 'response', status: Number(response[1]), reason: response[2], headers, body };
  const request = /^([A-Z]+) (\S+) SIP\/2\.0$/.exec(start);
  if (request) return { kind: 'request', method: request[1], uri: request[2], headers, body };
  return null;
}

/** The first value of a header, by any case or compact form. */
export function headerOf(message: Pick<SipMessage, 'headers'>, name: string): string | undefined {
  const wanted = canonical(name);
  return message.headers.find(([n]) => canonical(n) === wanted)?.[1];
}

/** Every value of a header, in order (Via may come several times). */
export function headersOf(message: Pick<SipMessage, 'headers'>, name: string): string[] {
  const wanted = canonical(name);
  return message.headers.filter(([n]) => canonical(n) === wanted).map(([, v]) => v);
}

export function cseqOf(message: Pick<SipMessage, 'headers'>): { seq: number; method: string } | null {
  const match = /^(\d+)\s+([A-Z]+)$/.exec(headerOf(message, 'cseq') ?? '');
  return match ? { seq: Number(match[1]), method: match[2] } : null;
}

/** The `tag` parameter of a From or To value. */
export function tagOf(value: string | undefined): string | null {
  const match = /;\s*tag=([^;>\s]+)/i.exec(value?.replace(/<[^>]*>/, '') ?? '');
  return match ? match[1] : null;
}

/** The URI of a name-addr (`"Bob" <sip:bob@host>;tag=x`) or addr-spec. */
export function uriOf(value: string | undefined): string | null {
  if (!value) return null;
  const angled = /<([^>]+)>/.exec(value);
  if (angled) return angled[1];
  return value.split(';')[0].trim() || null;
}

/** The `branch` parameter of the top Via. */
export function branchOf(message: Pick<SipMessage, 'headers'>): string | null {
  const match = /;\s*branch=([^;,\s]+)/i.exec(headerOf(message, 'via') ?? '');
  return match ? match[1] : null;
}

export function serialize(message: SipMessage): string {
  const start =
    message.kind === 'request'
      ? `${message.method} ${message.uri} SIP/2.0`
      : `SIP/2.0 ${message.status} ${message.reason}`;
  const headers = message.headers.filter(([name]) => canonical(name) !== 'content-length');
  headers.push(['Content-Length', String(Buffer.byteLength(message.body))]);
  return `${start}\r\n${headers.map(([n, v]) => `${n}: ${v}`).join('\r\n')}\r\n\r\n${message.body}`;
}

/** What the UA knows of the dialog it is building or in. */
export interface DialogIds {
  callId: string;
  localUri: string;
  localTag: string;
  remoteUri: string;
  /** set once a response carried it */
  remoteTag: string | null;
  /** where requests inside the dialog go (the callee's Contact); the request URI before that */
  remoteTarget: string;
  /** our Contact and Via sent-by, `host:port` */
  localAddress: string;
  /** the transport in our Via (UDP unless said) */
  transport?: 'UDP' | 'TCP';
}

const via = (d: DialogIds, branch: string) =>
  `SIP/2.0/${d.transport ?? 'UDP'} ${d.localAddress};branch=${branch};rport`;
const to = (d: DialogIds) => `<${d.remoteUri}>${d.remoteTag ? `;tag=${d.remoteTag}` : ''}`;
const from = (d: DialogIds) => `<${d.localUri}>;tag=${d.localTag}`;
/** Our Contact: where requests inside the dialog reach us, on the transport we use. */
export const contact = (d: Pick<DialogIds, 'localAddress' | 'transport'>) =>
  `<sip:parley@${d.localAddress}${d.transport === 'TCP' ? ';transport=tcp' : ''}>`;

/** A new transaction's branch: RFC 3261's magic cookie, then something unique. */
export const newBranch = (unique: string) => `z9hG4bK${unique}`;

export function buildInvite(
  d: DialogIds,
  branch: string,
  extraHeaders: Array<[string, string]>,
  sdp: string,
  cseq = 1,
): SipRequest {
  return {
    kind: 'request',
    method: 'INVITE',
    uri: d.remoteTarget,
    headers: [
      ['Via', via(d, branch)],
      ['Max-Forwards', '70'],
      ['From', from(d)],
      ['To', to(d)],
      ['Call-ID', d.callId],
      ['CSeq', `${cseq} INVITE`],
      ['Contact', contact(d)],
      ['Allow', 'INVITE, ACK, CANCEL, BYE, OPTIONS, UPDATE, INFO'],
      ['User-Agent', 'Parley'],
      ...extraHeaders,
      ['Content-Type', 'application/sdp'],
    ],
    body: sdp,
  };
}

/**
 * ACK for the INVITE's final response. For a 2xx it is a new transaction to the remote target
 * (RFC 3261 §13.2.2.4); for a failure it belongs to the INVITE transaction: same branch, same URI
 * (§17.1.1.3).
 */
export function buildAck(d: DialogIds, inviteUri: string, branch: string, success: boolean, cseq = 1): SipRequest {
  return {
    kind: 'request',
    method: 'ACK',
    uri: success ? d.remoteTarget : inviteUri,
    headers: [
      ['Via', via(d, branch)],
      ['Max-Forwards', '70'],
      ['From', from(d)],
      ['To', to(d)],
      ['Call-ID', d.callId],
      ['CSeq', `${cseq} ACK`],
    ],
    body: '',
  };
}

/** CANCEL of the pending INVITE: its URI, branch and CSeq number, no To tag (§9.1). */
export function buildCancel(d: DialogIds, inviteUri: string, branch: string, cseq = 1): SipRequest {
  return {
    kind: 'request',
    method: 'CANCEL',
    uri: inviteUri,
    headers: [
      ['Via', via(d, branch)],
      ['Max-Forwards', '70'],
      ['From', from(d)],
      ['To', `<${d.remoteUri}>`],
      ['Call-ID', d.callId],
      ['CSeq', `${cseq} CANCEL`],
    ],
    body: '',
  };
}

export function buildBye(d: DialogIds, branch: string, cseq: number): SipRequest {
  return {
    kind: 'request',
    method: 'BYE',
    uri: d.remoteTarget,
    headers: [
      ['Via', via(d, branch)],
      ['Max-Forwards', '70'],
      ['From', from(d)],
      ['To', to(d)],
      ['Call-ID', d.callId],
      ['CSeq', `${cseq} BYE`],
    ],
    body: '',
  };
}

export interface ResponseExtras {
  /** our tag, added to To when the request's To has none (§8.2.6.2: every response but 100 of a dialog-creating request) */
  toTag?: string;
  headers?: Array<[string, string]>;
  /** an SDP body (Content-Type application/sdp) */
  sdp?: string;
}

/** A response to a request we received: its Via, From, To, Call-ID and CSeq copied back (§8.2.6.2). */
export function buildResponse(
  request: SipRequest,
  status: number,
  reason: string,
  extras: ResponseExtras = {},
): SipResponse {
  const copied = request.headers
    .filter(([name]) => ['via', 'from', 'to', 'call-id', 'cseq'].includes(canonical(name)))
    .map(([name, value]): [string, string] =>
      canonical(name) === 'to' && extras.toTag && tagOf(value) === null
        ? [name, `${value};tag=${extras.toTag}`]
        : [name, value],
    );
  const headers = [...copied, ...(extras.headers ?? [])];
  if (extras.sdp !== undefined) headers.push(['Content-Type', 'application/sdp']);
  return { kind: 'response', status, reason, headers, body: extras.sdp ?? '' };
}
