import { randomBytes } from 'node:crypto';
import type { AudioCodec, NegotiatedAudio, SrtpKeys } from '../voice/call-media.port';
import { SDES_KEY_BYTES, SRTP_SUITES, type SrtpSuite } from '../voice/media/srtp-context';

/**
 * SDP offer/answer (RFC 3264, RFC 4566) for one G.711 audio stream, as text in and out: no
 * sockets. Parley speaks PCMU and PCMA at 8 kHz over RTP/AVP, or RTP/SAVP keyed by SDES (RFC 4568),
 * with RFC 4733 telephone-event for DTMF; everything else a peer offers is declined stream by stream, and an offer with no audio
 * stream Parley can take is refused as a whole (488).
 */

export type Direction = NegotiatedAudio['direction'];
const DIRECTIONS: readonly Direction[] = ['sendrecv', 'sendonly', 'recvonly', 'inactive'];

interface SdpMedia {
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
  /** its `a=crypto` lines (RFC 4568), in order */
  crypto: SdesCrypto[];
}

/** One `a=crypto` line; `usable` when Parley can key SRTP with it (a suite it speaks, one 30-byte inline key, no MKI, no session parameters). */
interface SdesCrypto {
  tag: number;
  suite: string;
  key: string;
  usable: boolean;
}

export interface SessionDescription {
  /** the session-level c= address */
  address: string | null;
  direction: Direction | null;
  media: SdpMedia[];
}

/** Longest SDP body read: a real offer is a few hundred bytes; this bounds the work a hostile one can ask. */
const MAX_SDP_BYTES = 8192;
const MAX_MEDIA = 16;
const MAX_FORMATS = 64;
const MAX_CRYPTO = 16;

/** `a=crypto:<tag> <suite> inline:<key||salt>[|lifetime][|MKI:length] [session params]` (RFC 4568 §9.1). */
function parseCrypto(value: string): SdesCrypto | null {
  const m = /^crypto:(\d{1,9}) (\S+) inline:([A-Za-z0-9+/]+={0,2})((?:\|\S*)?)(.*)$/.exec(value);
  if (!m) return null;
  const key = Buffer.from(m[3], 'base64');
  // a lifetime (`|2^31`) is fine; an MKI (`|1:4`) would put a field in every packet Parley does not read
  const mki = m[4].includes(':');
  const usable = SRTP_SUITES.includes(m[2] as SrtpSuite) && key.length === SDES_KEY_BYTES && !mki && m[5].trim() === '';
  return { tag: Number(m[1]), suite: m[2], key: m[3], usable };
}

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
        crypto: [],
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
      const crypto = value.startsWith('crypto:') ? parseCrypto(value) : null;
      if (crypto && current.crypto.length < MAX_CRYPTO) current.crypto.push(crypto);
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

/** A fresh SDES key: 16 bytes of master key and 14 of salt, base64 as `inline:` carries it. */
export const newSdesKey = () => randomBytes(SDES_KEY_BYTES).toString('base64');

/** How a stream is protected, or why Parley cannot take it. */
type Protection = { ok: true; srtp: SrtpKeys | null; cryptoTag: number | null } | { ok: false; why: string };

/** An offered stream's protection: RTP/AVP plain, RTP/SAVP with the offer's first usable SDES key and ours. */
function offeredProtection(media: SdpMedia, localKey: string): Protection {
  if (media.proto === 'RTP/AVP') return { ok: true, srtp: null, cryptoTag: null };
  if (media.proto !== 'RTP/SAVP')
    return { ok: false, why: `the audio profile ${media.proto} is not supported (RTP/AVP or RTP/SAVP with SDES)` };
  const crypto = media.crypto.find((c) => c.usable);
  if (!crypto)
    return {
      ok: false,
      why: 'no SDES key Parley can use (AES_CM_128_HMAC_SHA1_80 or _32, an inline key without MKI)',
    };
  return {
    ok: true,
    srtp: { suite: crypto.suite as SrtpSuite, remoteKey: crypto.key, localKey },
    cryptoTag: crypto.tag,
  };
}

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
      /** the `a=crypto` tag the answer accepts, for an RTP/SAVP stream */
      cryptoTag: number | null;
    }
  | { ok: false; why: string };

/**
 * Picks the first audio stream Parley can take, and in it the offerer's first G.711 codec (RFC 3264
 * §6.1: the answerer should prefer the offerer's order). `supported` lists what the media side can do.
 * An RTP/SAVP stream is taken with its first usable SDES key; `localKey` is the key our answer
 * carries (a re-INVITE passes the call's, so a hold does not re-key the stream).
 */
export function negotiateOffer(
  offer: SessionDescription,
  supported: readonly AudioCodec[] = ['PCMU', 'PCMA'],
  localKey: string = newSdesKey(),
): OfferVerdict {
  return chooseStream(offer, supported, (media) => offeredProtection(media, localKey));
}

function chooseStream(
  offer: SessionDescription,
  supported: readonly AudioCodec[],
  protection: (media: SdpMedia) => Protection,
): OfferVerdict {
  let why = 'the offer has no audio stream';
  for (const [index, media] of offer.media.entries()) {
    if (media.media !== 'audio' || media.port === 0) continue;
    const protect = protection(media);
    if (!protect.ok) {
      why = protect.why;
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
      cryptoTag: protect.cryptoTag,
      audio: {
        codec: codecOf(media, chosen)!,
        payloadType: Number(chosen),
        dtmfPayloadType: dtmfOf(media),
        remoteAddress: address,
        remotePort: media.port,
        direction,
        srtp: protect.srtp,
      },
    };
  }
  return { ok: false, why };
}

/** The SDES key our offer carried (`buildOffer`'s `crypto`), to read the answer's against. */
export interface OfferedKey {
  tag: number;
  suite: SrtpSuite;
  key: string;
}

/**
 * What the far end answered to our offer (the answerer picks; we offered PCMU, PCMA,
 * telephone-event). The answer keeps our profile (RFC 3264 §6): to an RTP/SAVP offer (`offered`
 * its key) an RTP/SAVP stream accepting our crypto tag, to an RTP/AVP one a plain stream.
 */
export function readAnswer(answer: SessionDescription, offered: OfferedKey | null = null): NegotiatedAudio | null {
  const verdict = chooseStream(answer, ['PCMU', 'PCMA'], (media): Protection => {
    if (!offered)
      return media.proto === 'RTP/AVP'
        ? { ok: true, srtp: null, cryptoTag: null }
        : { ok: false, why: 'not the RTP/AVP we offered' };
    const accepted = media.crypto.find((c) => c.tag === offered.tag);
    if (media.proto !== 'RTP/SAVP' || !accepted?.usable || accepted.suite !== offered.suite)
      return { ok: false, why: 'not the RTP/SAVP stream with our SDES key we offered' };
    return {
      ok: true,
      srtp: { suite: offered.suite, remoteKey: accepted.key, localKey: offered.key },
      cryptoTag: offered.tag,
    };
  });
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
const OFFERED_DTMF_PT = 101;
/** The one SDES key an RTP/SAVP offer of ours carries: tag 1, the suite every SRTP peer speaks. */
export const OFFERED_CRYPTO = { tag: 1, suite: 'AES_CM_128_HMAC_SHA1_80' } as const;
const cryptoLine = (tag: number, suite: string, key: string) => `a=crypto:${tag} ${suite} inline:${key}`;

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
    ...(crypto ? [cryptoLine(OFFERED_CRYPTO.tag, OFFERED_CRYPTO.suite, crypto)] : []),
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
    const { payloadType, codec, dtmfPayloadType, direction, srtp } = verdict.audio;
    const formats = [payloadType, ...(dtmfPayloadType === null ? [] : [dtmfPayloadType])];
    lines.push(`m=audio ${local.port} ${media.proto} ${formats.join(' ')}`, `a=rtpmap:${payloadType} ${codec}/8000`);
    if (dtmfPayloadType !== null)
      lines.push(
        `a=rtpmap:${dtmfPayloadType} telephone-event/8000`,
        `a=fmtp:${dtmfPayloadType} ${media.fmtp[String(dtmfPayloadType)] ?? '0-16'}`,
      );
    if (srtp && verdict.cryptoTag !== null) lines.push(cryptoLine(verdict.cryptoTag, srtp.suite, srtp.localKey));
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
    ...(crypto ? [cryptoLine(OFFERED_CRYPTO.tag, OFFERED_CRYPTO.suite, crypto)] : []),
    'a=inactive',
  ]);
}
