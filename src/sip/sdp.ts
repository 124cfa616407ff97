import type { AudioCodec, NegotiatedAudio } from '../voice/call-media.port';

/**
 * SDP offer/answer (RFC 3264, RFC 4566) for one G.711 audio stream, as text in and out: no
 * sockets. Parley speaks PCMU and PCMA at 8 kHz over RTP/AVP, with RFC 4733 telephone-event for
 * DTMF; everything else a peer offers is declined stream by stream, and an offer with no audio
 * stream Parley can take is refused as a whole (488).
 */

export type Direction = NegotiatedAudio['direction'];
const DIRECTIONS: readonly Direction[] = ['sendrecv', 'sendonly', 'recvonly', 'inactive'];

export interface SdpMedia {
  media: string;
  port: number;
  proto: string;
  formats: string[];
  /** payload type → `ENCODING/clock` as its rtpmap said (upper-cased encoding) */
  rtpmap: Record<string, string>;
  fmtp: Record<string, string>;
  /** the media-level c= address, when there is one */
  address: string | null;
  direction: Direction | null;
}

export interface SessionDescription {
  /** the session-level c= address */
  address: string | null;
  direction: Direction | null;
  media: SdpMedia[];
}

/** Longest SDP body read: a real offer is a few hundred bytes; this bounds the work a hostile one can ask. */
export const MAX_SDP_BYTES = 8192;
const MAX_MEDIA = 16;
const MAX_FORMATS = 64;

/** Parses an SDP body; null when it is not one (no v=0, a broken m= line, too large). */
export function parseSdp(text: string): SessionDescription | null {
  if (Buffer.byteLength(text) > MAX_SDP_BYTES) return null;
  const lines = text.split(/\r?\n/).filter((line) => line.length > 0);
  if (lines[0]?.trim() !== 'v=0') return null;
  const session: SessionDescription = { address: null, direction: null, media: [] };
  let current: SdpMedia | null = null;
  for (const raw of lines) {
    const line = raw.trim();
    const type = line[0];
    const value = line.slice(2);
    if (line[1] !== '=') return null;
    if (type === 'm') {
      const m = /^(\S+) (\d{1,5})(?:\/\d+)? (\S+)((?: \S+)*)$/.exec(value);
      if (!m || Number(m[2]) > 65535 || session.media.length >= MAX_MEDIA) return null;
      const formats = m[4].trim() ? m[4].trim().split(/\s+/) : [];
      if (formats.length > MAX_FORMATS) return null;
      current = {
        media: m[1],
        port: Number(m[2]),
        proto: m[3],
        formats,
        rtpmap: {},
        fmtp: {},
        address: null,
        direction: null,
      };
      session.media.push(current);
    } else if (type === 'c') {
      const c = /^IN IP[46] ([^\s/]+)/.exec(value);
      if (!c) return null;
      if (current) current.address = c[1];
      else session.address = c[1];
    } else if (type === 'a') {
      const direction = DIRECTIONS.find((d) => d === value);
      if (direction) {
        if (current) current.direction = direction;
        else session.direction = direction;
        continue;
      }
      if (!current) continue;
      const rtpmap = /^rtpmap:(\d{1,3}) ([^/\s]+)\/(\d+)/.exec(value);
      if (rtpmap) current.rtpmap[rtpmap[1]] = `${rtpmap[2].toUpperCase()}/${rtpmap[3]}`;
      const fmtp = /^fmtp:(\d{1,3}) (.*)$/.exec(value);
      if (fmtp) current.fmtp[fmtp[1]] = fmtp[2].trim();
    }
  }
  return session;
}

/** The codec a payload type names: its rtpmap, else RFC 3551's static assignment (0 PCMU, 8 PCMA). */
function codecOf(media: SdpMedia, pt: string): AudioCodec | null {
  const mapped = media.rtpmap[pt];
  if (mapped === 'PCMU/8000') return 'PCMU';
  if (mapped === 'PCMA/8000') return 'PCMA';
  if (mapped) return null;
  return pt === '0' ? 'PCMU' : pt === '8' ? 'PCMA' : null;
}

function dtmfOf(media: SdpMedia): number | null {
  const pt = media.formats.find((f) => media.rtpmap[f] === 'TELEPHONE-EVENT/8000');
  return pt === undefined ? null : Number(pt);
}

/** Where RTP goes for a stream, and whether the peer holds it (c=0.0.0.0 is RFC 2543's hold). */
function endpointOf(session: SessionDescription, media: SdpMedia) {
  const address = media.address ?? session.address;
  const direction = media.direction ?? session.direction ?? 'sendrecv';
  const held = address === '0.0.0.0' || address === '::';
  return { address, direction: held ? ('inactive' as const) : direction };
}

const ACCEPTED_PROTOS = new Set(['RTP/AVP']);

/** Our direction for the peer's: it sends only, so we receive only; and so on (RFC 3264 §6.1). */
export function answerDirection(theirs: Direction): Direction {
  if (theirs === 'sendonly') return 'recvonly';
  if (theirs === 'recvonly') return 'sendonly';
  return theirs;
}

export type OfferVerdict =
  | {
      ok: true;
      /** the far end's side of the call; `direction` is as the offer put it (0.0.0.0 → inactive) */
      audio: NegotiatedAudio;
      /** which m= line carries the call's audio (the others are declined in the answer) */
      index: number;
    }
  | { ok: false; why: string };

/**
 * Picks the first audio stream Parley can take, and in it the offerer's first G.711 codec (RFC 3264
 * §6.1: the answerer should prefer the offerer's order). `supported` lists what the media side can do.
 */
export function negotiateOffer(
  offer: SessionDescription,
  supported: readonly AudioCodec[] = ['PCMU', 'PCMA'],
): OfferVerdict {
  let why = 'the offer has no audio stream';
  for (const [index, media] of offer.media.entries()) {
    if (media.media !== 'audio' || media.port === 0) continue;
    if (!ACCEPTED_PROTOS.has(media.proto)) {
      why = `the audio profile ${media.proto} is not supported (RTP/AVP only)`;
      continue;
    }
    const chosen = media.formats.find((pt) => {
      const codec = codecOf(media, pt);
      return codec !== null && supported.includes(codec);
    });
    if (chosen === undefined) {
      why = 'no codec in common (Parley speaks PCMU and PCMA)';
      continue;
    }
    const { address, direction } = endpointOf(offer, media);
    if (!address) return { ok: false, why: 'the audio stream has no connection address (c=)' };
    return {
      ok: true,
      index,
      audio: {
        codec: codecOf(media, chosen)!,
        payloadType: Number(chosen),
        dtmfPayloadType: dtmfOf(media),
        remoteAddress: address,
        remotePort: media.port,
        direction,
      },
    };
  }
  return { ok: false, why };
}

/** What the far end answered to our offer (the answerer picks; we offered PCMU, PCMA, telephone-event). */
export function readAnswer(answer: SessionDescription): NegotiatedAudio | null {
  const verdict = negotiateOffer(answer);
  return verdict.ok ? verdict.audio : null;
}

export interface LocalAudio {
  address: string;
  port: number;
  /** o= session id and version: the version goes up with each new description of one session */
  sessionId: string;
  version: number;
}

const ipVersion = (address: string) => (address.includes(':') ? 'IP6' : 'IP4');

function header(local: LocalAudio): string[] {
  const ip = ipVersion(local.address);
  return [
    'v=0',
    `o=parley ${local.sessionId} ${local.version} IN ${ip} ${local.address}`,
    's=Parley',
    `c=IN ${ip} ${local.address}`,
    't=0 0',
  ];
}

const finish = (lines: string[]) => `${lines.join('\r\n')}\r\n`;

/** The telephone-event payload type Parley offers (a dynamic one, as trunks expect). */
export const OFFERED_DTMF_PT = 101;

/**
 * Our offer (outbound calls): PCMU, PCMA and telephone-event on the call audio's real port,
 * `sendrecv`; `profile` RTP/SAVP adds an SDES key (`crypto`) for calls that ask for SRTP.
 */
export function buildOffer(local: LocalAudio, profile: 'RTP/AVP' | 'RTP/SAVP', crypto: string | null): string {
  return finish([
    ...header(local),
    `m=audio ${local.port} ${profile} 0 8 ${OFFERED_DTMF_PT}`,
    'a=rtpmap:0 PCMU/8000',
    'a=rtpmap:8 PCMA/8000',
    `a=rtpmap:${OFFERED_DTMF_PT} telephone-event/8000`,
    `a=fmtp:${OFFERED_DTMF_PT} 0-16`,
    'a=ptime:20',
    ...(crypto ? [`a=crypto:1 AES_CM_128_HMAC_SHA1_80 inline:${crypto}`] : []),
    'a=sendrecv',
  ]);
}

/**
 * Our answer to an offer `negotiateOffer` accepted: the same m= lines in the same order (RFC 3264
 * §6), the chosen one with its codec (and telephone-event when offered), every other one declined
 * with port 0; our direction mirrors the offerer's.
 */
export function buildAnswer(
  local: LocalAudio,
  offer: SessionDescription,
  verdict: OfferVerdict & { ok: true },
): string {
  const lines = header(local);
  for (const [index, media] of offer.media.entries()) {
    if (index !== verdict.index) {
      lines.push(`m=${media.media} 0 ${media.proto} ${media.formats[0] ?? '0'}`);
      continue;
    }
    const { payloadType, codec, dtmfPayloadType, direction } = verdict.audio;
    const formats = [payloadType, ...(dtmfPayloadType === null ? [] : [dtmfPayloadType])];
    lines.push(`m=audio ${local.port} RTP/AVP ${formats.join(' ')}`, `a=rtpmap:${payloadType} ${codec}/8000`);
    if (dtmfPayloadType !== null)
      lines.push(
        `a=rtpmap:${dtmfPayloadType} telephone-event/8000`,
        `a=fmtp:${dtmfPayloadType} ${media.fmtp[String(dtmfPayloadType)] ?? '0-16'}`,
      );
    lines.push('a=ptime:20', `a=${answerDirection(direction)}`);
  }
  return finish(lines);
}

/** The old signalling-only offer, for when no media side is wired: an `inactive` stream on the discard port. */
export function buildInactiveOffer(
  local: Omit<LocalAudio, 'port'>,
  profile: 'RTP/AVP' | 'RTP/SAVP',
  crypto: string | null,
) {
  return finish([
    ...header({ ...local, port: 9 }),
    // port 9 (discard): RFC 4566 allows any port for an inactive stream; 0 would refuse the stream
    `m=audio 9 ${profile} 0 8`,
    'a=rtpmap:0 PCMU/8000',
    'a=rtpmap:8 PCMA/8000',
    ...(crypto ? [`a=crypto:1 AES_CM_128_HMAC_SHA1_80 inline:${crypto}`] : []),
    'a=inactive',
  ]);
}
