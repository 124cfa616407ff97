import { createCipheriv, createHmac, timingSafeEqual } from 'node:crypto';

/**
 * SRTP (RFC 3711) for one direction of one call: AES-128 in counter mode for the payload,
 * HMAC-SHA1 over the packet and its rollover counter for the tag, keys derived from an SDES
 * master key (RFC 4568) with the AES-CM PRF and a key derivation rate of 0. A sending context
 * protects, a receiving one unprotects; each call has one of each, with the two sides' keys.
 */

/** The SDES crypto suites Parley takes: AES-CM-128 with an 80- or 32-bit HMAC-SHA1 tag. */
export type SrtpSuite = 'AES_CM_128_HMAC_SHA1_80' | 'AES_CM_128_HMAC_SHA1_32';
export const SRTP_SUITES: readonly SrtpSuite[] = ['AES_CM_128_HMAC_SHA1_80', 'AES_CM_128_HMAC_SHA1_32'];

const TAG_BYTES: Record<SrtpSuite, number> = { AES_CM_128_HMAC_SHA1_80: 10, AES_CM_128_HMAC_SHA1_32: 4 };
/** An SDES key is the 16-byte master key then the 14-byte master salt (RFC 4568 §6.1). */
const MASTER_KEY_BYTES = 16;
const MASTER_SALT_BYTES = 14;
export const SDES_KEY_BYTES = MASTER_KEY_BYTES + MASTER_SALT_BYTES;

const LABEL_ENCRYPTION = 0;
const LABEL_AUTHENTICATION = 1;
const LABEL_SALT = 2;
/** how far behind the highest index a packet may arrive and still be taken once (RFC 3711 §3.3.2) */
const REPLAY_WINDOW = 64;
/** far-end sources tracked at once; a peer that keeps changing SSRC only evicts its own old state */
const MAX_SOURCES = 8;
const HEADER = 12;

/** `length` bytes of AES-CM keystream (RFC 3711 §4.1.1) from a 16-byte counter block `iv`. */
export function aesCmKeystream(key: Uint8Array, iv: Uint8Array, length: number): Buffer {
  const cipher = createCipheriv('aes-128-ctr', key, iv);
  return Buffer.concat([cipher.update(Buffer.alloc(length)), cipher.final()]);
}

/** A session key (RFC 3711 §4.3.1, key derivation rate 0): the PRF keyed by the master key at x = label XOR salt. */
export function deriveSessionKey(masterKey: Uint8Array, masterSalt: Uint8Array, label: number, length: number): Buffer {
  const iv = Buffer.alloc(16);
  Buffer.from(masterSalt).copy(iv, 0);
  // key_id = label || index DIV kdr (zero), 7 bytes right-aligned under the 14-byte salt
  iv[7] ^= label;
  return aesCmKeystream(masterKey, iv, length);
}

/** The counter block for one packet (RFC 3711 §4.1.1): salt·2^16 XOR SSRC·2^64 XOR index·2^16. */
export function packetIv(salt: Uint8Array, ssrc: number, index: number): Buffer {
  const iv = Buffer.alloc(16);
  Buffer.from(salt).copy(iv, 0);
  iv.writeUInt32BE((iv.readUInt32BE(4) ^ ssrc) >>> 0, 4);
  // the 48-bit index sits in bytes 8..13
  const high = Math.floor(index / 0x100000000);
  iv.writeUInt16BE((iv.readUInt16BE(8) ^ high) & 0xffff, 8);
  iv.writeUInt32BE((iv.readUInt32BE(10) ^ index) >>> 0, 10);
  return iv;
}

/** Where an RTP packet's payload starts (after CSRCs and a header extension); null when the header is cut short. */
function payloadOffset(packet: Uint8Array): number | null {
  if (packet.length < HEADER || packet[0] >> 6 !== 2) return null;
  let offset = HEADER + (packet[0] & 0x0f) * 4;
  if (packet[0] & 0x10) {
    if (packet.length < offset + 4) return null;
    offset += 4 + ((packet[offset + 2] << 8) | packet[offset + 3]) * 4;
  }
  return offset <= packet.length ? offset : null;
}

interface SourceState {
  /** the rollover counter and highest sequence number seen (s_l) */
  roc: number;
  highestSeq: number;
  /** highest index taken, and which of the REPLAY_WINDOW indexes below it were taken (bit n = highest − n) */
  highest: number;
  window: bigint;
}

const WINDOW_MASK = (1n << BigInt(REPLAY_WINDOW)) - 1n;

/** Why a packet was not unprotected; counted by the receiver, never thrown. */
export type SrtpRejection = 'malformed' | 'replayed' | 'unauthenticated';

export class SrtpContext {
  private readonly encryptionKey: Buffer;
  private readonly authKey: Buffer;
  private readonly salt: Buffer;
  private readonly tagBytes: number;
  private readonly sources = new Map<number, SourceState>();

  /** `master` is an SDES key: 30 bytes, or their base64 as in `a=crypto … inline:`. */
  constructor(
    readonly suite: SrtpSuite,
    master: Uint8Array | string,
  ) {
    const bytes = typeof master === 'string' ? Buffer.from(master, 'base64') : Buffer.from(master);
    if (bytes.length !== SDES_KEY_BYTES) throw new Error(`an SDES key is ${SDES_KEY_BYTES} bytes`);
    const key = bytes.subarray(0, MASTER_KEY_BYTES);
    const salt = bytes.subarray(MASTER_KEY_BYTES);
    this.encryptionKey = deriveSessionKey(key, salt, LABEL_ENCRYPTION, 16);
    this.authKey = deriveSessionKey(key, salt, LABEL_AUTHENTICATION, 20);
    this.salt = deriveSessionKey(key, salt, LABEL_SALT, 14);
    this.tagBytes = TAG_BYTES[suite];
  }

  /**
   * An RTP packet made SRTP: payload encrypted, tag appended. The sender's rollover counter
   * follows its own sequence numbers (a wrap to 0 adds one); null for a packet too short to be RTP.
   */
  protect(rtp: Uint8Array): Buffer | null {
    const offset = payloadOffset(rtp);
    if (offset === null) return null;
    const view = Buffer.from(rtp);
    const ssrc = view.readUInt32BE(8);
    const seq = view.readUInt16BE(2);
    let state = this.sources.get(ssrc);
    if (!state) {
      state = { roc: 0, highestSeq: seq, highest: seq, window: 1n };
      this.remember(ssrc, state);
    } else if (seq < state.highestSeq && state.highestSeq - seq > 0x8000) {
      state.roc = (state.roc + 1) >>> 0;
      state.highestSeq = seq;
    } else if (seq > state.highestSeq) state.highestSeq = seq;
    const index = state.roc * 0x10000 + seq;
    const out = Buffer.alloc(rtp.length + this.tagBytes);
    view.copy(out, 0, 0, offset);
    this.crypt(view.subarray(offset), ssrc, index).copy(out, offset);
    this.tag(out.subarray(0, rtp.length), state.roc).copy(out, rtp.length);
    return out;
  }

  /**
   * An SRTP packet back to RTP, or why not: its tag is checked (before anything is decrypted) for
   * the rollover counter its sequence number implies, and an index already taken or older than
   * the replay window is refused. Only an authentic packet moves the counters.
   */
  unprotect(srtp: Uint8Array): Buffer | SrtpRejection {
    const offset = payloadOffset(srtp);
    if (offset === null || srtp.length < offset + this.tagBytes) return 'malformed';
    const view = Buffer.from(srtp);
    const ssrc = view.readUInt32BE(8);
    const seq = view.readUInt16BE(2);
    const state = this.sources.get(ssrc);
    // RFC 3711 §3.3.1: the receiver's guess of the sender's ROC (the first packet of a source sets s_l)
    let roc = 0;
    if (state) {
      roc = state.roc;
      if (state.highestSeq < 0x8000) {
        if (seq - state.highestSeq > 0x8000) roc = state.roc - 1;
      } else if (state.highestSeq - 0x8000 > seq) roc = state.roc + 1;
      if (roc < 0 || roc > 0xffffffff) return 'replayed';
    }
    const index = roc * 0x10000 + seq;
    if (state && this.replayed(state, index)) return 'replayed';
    const end = view.length - this.tagBytes;
    const expected = this.tag(view.subarray(0, end), roc >>> 0);
    if (!timingSafeEqual(expected, view.subarray(end))) return 'unauthenticated';
    const plain = Buffer.alloc(end);
    view.copy(plain, 0, 0, offset);
    this.crypt(view.subarray(offset, end), ssrc, index).copy(plain, offset);
    if (!state) this.remember(ssrc, { roc, highestSeq: seq, highest: index, window: 1n });
    else this.accept(state, index, roc, seq);
    return plain;
  }

  private replayed(state: SourceState, index: number): boolean {
    if (index > state.highest) return false;
    const behind = state.highest - index;
    if (behind >= REPLAY_WINDOW) return true;
    return (state.window >> BigInt(behind)) & 1n ? true : false;
  }

  private accept(state: SourceState, index: number, roc: number, seq: number): void {
    if (index > state.highest) {
      const ahead = index - state.highest;
      state.window = ahead >= REPLAY_WINDOW ? 1n : ((state.window << BigInt(ahead)) | 1n) & WINDOW_MASK;
      state.highest = index;
      state.roc = roc;
      state.highestSeq = seq;
    } else state.window |= 1n << BigInt(state.highest - index);
  }

  private remember(ssrc: number, state: SourceState): void {
    if (this.sources.size >= MAX_SOURCES) this.sources.delete(this.sources.keys().next().value as number);
    this.sources.set(ssrc, state);
  }

  private crypt(data: Uint8Array, ssrc: number, index: number): Buffer {
    const keystream = aesCmKeystream(this.encryptionKey, packetIv(this.salt, ssrc, index), data.length);
    for (let i = 0; i < data.length; i++) keystream[i] ^= data[i];
    return keystream;
  }

  /** HMAC-SHA1 over the authenticated portion and the ROC (RFC 3711 §4.2), cut to the suite's length. */
  private tag(authenticated: Uint8Array, roc: number): Buffer {
    const rocBytes = Buffer.alloc(4);
    rocBytes.writeUInt32BE(roc >>> 0);
    return createHmac('sha1', this.authKey).update(authenticated).update(rocBytes).digest().subarray(0, this.tagBytes);
  }
}
