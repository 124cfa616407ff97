import dgram from 'node:dgram';
import type { AudioCodec, NegotiatedAudio, SrtpKeys } from '../call-media.port';
import { DtmfReceiver, digitPackets } from './dtmf';
import { decodeG711, encodeG711, silenceByte } from './g711';
import { JitterBuffer } from './jitter-buffer';
import { buildRtp, parseRtp } from './rtp-packet';
import { SrtpContext } from './srtp-context';
import type { SpeakingAudio } from './speaking-audio';

export const FRAME_MS = 20;
const FRAME_SAMPLES = 160; // 20 ms at 8 kHz
/** packets the receiver holds before playing out: 60 ms at 20 ms a packet absorbs ordinary jitter */
const JITTER_DEPTH = 3;
/** after a stall (a busy event loop), catch up at most this many frames, then resynchronise */
const MAX_CATCH_UP = 5;

interface Playing {
  pcm: Int16Array;
  offset: number;
  started: boolean;
  onFirstPacket?: () => void;
  done: (completed: boolean) => void;
}

interface Remote {
  address: string;
  port: number;
}

/**
 * One call's RTP endpoint (RFC 3550) on a bound UDP socket: G.711 both ways in 20 ms frames paced
 * by a drift-correcting timer, comfort silence whenever nothing is said (it keeps NAT bindings and
 * the far end's jitter buffer alive), RFC 4733 digits, and symmetric RTP: the first valid packet
 * after connect() names the far end's real address, and packets from anywhere else are ignored.
 * `direction` is the far end's, as its SDP said: sendonly/inactive put us on hold (we stop sending).
 * With SDES keys (an RTP/SAVP stream) every packet is SRTP: protected with our key, and one that
 * fails the far end's authentication is counted (`stats.unauthenticated`) and dropped before it
 * can move anything, the symmetric-RTP latch included.
 */
export class RtpSession implements SpeakingAudio {
  private audio: NegotiatedAudio | null = null;
  private remote: Remote | null = null;
  private latched = false;
  private readonly ssrc = Math.floor(Math.random() * 0xffffffff) >>> 0;
  private sequence = Math.floor(Math.random() * 0xffff);
  private timestamp = Math.floor(Math.random() * 0xffffffff) >>> 0;
  private marker = true;
  private readonly queue: Playing[] = [];
  private readonly digits: { payload: Uint8Array; marker: boolean; timestamp: number; done?: () => void }[] = [];
  private jitter: JitterBuffer<Int16Array> = this.newJitterBuffer();
  /** the length of the far end's packets (its ptime), for the silence that stands in for a lost one */
  private packetSamples = FRAME_SAMPLES;
  /** samples out of the jitter buffer not yet played out (packets need not be 20 ms long) */
  private readonly playout: Int16Array[] = [];
  private playoutSamples = 0;
  private farSsrc: number | null = null;
  private readonly dtmf = new DtmfReceiver();
  private readonly audioListeners = new Set<(frame: Int16Array) => void>();
  private readonly dtmfListeners = new Set<(digit: string) => void>();
  private timer: NodeJS.Timeout | null = null;
  private nextTick = 0;
  private closed = false;
  private keys: SrtpKeys | null = null;
  private protector: SrtpContext | null = null;
  private unprotector: SrtpContext | null = null;
  readonly stats = { sent: 0, received: 0, ignored: 0, unauthenticated: 0 };

  constructor(
    private readonly socket: dgram.Socket,
    readonly localAddress: string,
    readonly localPort: number,
  ) {
    socket.on('message', (data, from) => this.receive(data, from));
    // a malformed datagram or an ICMP unreachable must not take the process down
    socket.on('error', () => undefined);
  }

  connect(audio: NegotiatedAudio): void {
    if (this.closed) return;
    const moved =
      !this.audio || this.audio.remoteAddress !== audio.remoteAddress || this.audio.remotePort !== audio.remotePort;
    if (this.audio && this.audio.codec !== audio.codec) this.jitter = this.newJitterBuffer();
    this.audio = { ...audio };
    this.rekey(audio.srtp ?? null);
    if (moved) {
      this.remote = { address: audio.remoteAddress, port: audio.remotePort };
      this.latched = false;
    }
    if (!this.timer) {
      this.nextTick = Date.now() + FRAME_MS;
      this.schedule();
    }
  }

  onAudio(listener: (frame: Int16Array) => void): () => void {
    this.audioListeners.add(listener);
    return () => this.audioListeners.delete(listener);
  }

  onDtmf(listener: (digit: string) => void): () => void {
    this.dtmfListeners.add(listener);
    return () => this.dtmfListeners.delete(listener);
  }

  play(pcm: Int16Array, onFirstPacket?: () => void): Promise<boolean> {
    if (this.closed || pcm.length === 0) return Promise.resolve(!this.closed);
    return new Promise((done) => this.queue.push({ pcm, offset: 0, started: false, onFirstPacket, done }));
  }

  stopPlayback(): void {
    for (const item of this.queue.splice(0)) item.done(false);
    this.marker = true;
  }

  get speaking(): boolean {
    return this.queue.length > 0;
  }

  sendDigits(digits: string): Promise<void> {
    const dtmfOk = this.audio?.dtmfPayloadType != null;
    if (!dtmfOk || this.closed || digits.length === 0) return Promise.resolve();
    return new Promise((resolve) => {
      let startAt = this.timestamp;
      for (const digit of digits) {
        const packets = digitPackets(digit);
        // one event per digit: every packet carries the timestamp of its start (RFC 4733 §2.5.1.2)
        packets.forEach((p) => this.digits.push({ ...p, timestamp: startAt }));
        startAt += FRAME_SAMPLES * (packets.length + 3); // the digit, then a 60 ms pause
        for (let gap = 0; gap < 3; gap++)
          this.digits.push({ payload: new Uint8Array(0), marker: false, timestamp: -1 });
      }
      this.digits[this.digits.length - 1].done = resolve;
    });
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.stopPlayback();
    for (const d of this.digits.splice(0)) d.done?.();
    await new Promise<void>((resolve) => this.socket.close(() => resolve()));
  }

  /** New SRTP contexts when the keys change (a re-INVITE that keeps them keeps the counters). */
  private rekey(keys: SrtpKeys | null): void {
    const same =
      keys === this.keys ||
      (keys !== null &&
        this.keys !== null &&
        keys.suite === this.keys.suite &&
        keys.localKey === this.keys.localKey &&
        keys.remoteKey === this.keys.remoteKey);
    if (same) return;
    this.keys = keys ? { ...keys } : null;
    this.protector = keys ? new SrtpContext(keys.suite, keys.localKey) : null;
    this.unprotector = keys ? new SrtpContext(keys.suite, keys.remoteKey) : null;
  }

  private newJitterBuffer(): JitterBuffer<Int16Array> {
    return new JitterBuffer<Int16Array>(JITTER_DEPTH, () => new Int16Array(this.packetSamples));
  }

  private get sending(): boolean {
    return this.audio !== null && (this.audio.direction === 'sendrecv' || this.audio.direction === 'recvonly');
  }

  private get listening(): boolean {
    return this.audio !== null && (this.audio.direction === 'sendrecv' || this.audio.direction === 'sendonly');
  }

  private schedule(): void {
    this.timer = setTimeout(() => this.tick(), Math.max(0, this.nextTick - Date.now()));
  }

  private tick(): void {
    if (this.closed) return;
    const { frames, nextTick } = framesDue(Date.now(), this.nextTick);
    this.nextTick = nextTick;
    for (let i = 0; i < frames; i++) this.frame();
    // What the far end sent through a stall is read after the resync: hear the excess now, or every
    // later word of the call would reach the listeners that much late (sending just resyncs).
    if (this.listening && this.jitter.size > 2 * JITTER_DEPTH) while (this.jitter.size > JITTER_DEPTH) this.hear();
    this.schedule();
  }

  /** one 20 ms step: play out one received frame, send one frame */
  private frame(): void {
    if (this.listening) this.hear();
    if (!this.sending || !this.audio || !this.remote) return; // on hold: queued speech waits
    const digit = this.audio.dtmfPayloadType !== null ? this.digits.shift() : undefined;
    if (digit) digit.done?.();
    if (digit && digit.timestamp >= 0) {
      this.send(this.audio.dtmfPayloadType as number, digit.payload, digit.marker, digit.timestamp);
      this.timestamp = (this.timestamp + FRAME_SAMPLES) >>> 0;
      this.marker = true;
      return;
    }
    this.send(this.audio.payloadType, this.nextSpeech(this.audio.codec), this.marker, this.timestamp);
    this.marker = false;
    this.timestamp = (this.timestamp + FRAME_SAMPLES) >>> 0;
  }

  /** hands the listeners the next 20 ms heard: silence while the buffer fills or the far end sends nothing (listeners keep a clock) */
  private hear(): void {
    const heard = this.nextHeard();
    for (const listener of this.audioListeners) listener(heard);
  }

  /** 20 ms of what the far end said, re-cut from its packets whatever their length */
  private nextHeard(): Int16Array {
    while (this.playoutSamples < FRAME_SAMPLES) {
      const packet = this.jitter.pop();
      if (!packet) break;
      this.playout.push(packet);
      this.playoutSamples += packet.length;
    }
    const frame = new Int16Array(FRAME_SAMPLES);
    if (this.playoutSamples < FRAME_SAMPLES) return frame; // still filling, or nothing sent
    let at = 0;
    while (at < FRAME_SAMPLES) {
      const head = this.playout[0];
      const take = Math.min(head.length, FRAME_SAMPLES - at);
      frame.set(head.subarray(0, take), at);
      at += take;
      if (take === head.length) this.playout.shift();
      else this.playout[0] = head.subarray(take);
    }
    this.playoutSamples -= FRAME_SAMPLES;
    return frame;
  }

  private nextSpeech(codec: AudioCodec): Uint8Array {
    const item = this.queue[0];
    if (!item) return new Uint8Array(FRAME_SAMPLES).fill(silenceByte(codec));
    const chunk = new Int16Array(FRAME_SAMPLES);
    chunk.set(item.pcm.subarray(item.offset, item.offset + FRAME_SAMPLES));
    item.offset += FRAME_SAMPLES;
    if (!item.started) {
      item.started = true;
      item.onFirstPacket?.();
    }
    if (item.offset >= item.pcm.length) {
      this.queue.shift();
      // resolve once this frame is on the wire (send() below runs in the same tick)
      queueMicrotask(() => item.done(true));
    }
    return encodeG711(codec, chunk);
  }

  private send(payloadType: number, payload: Uint8Array, marker: boolean, timestamp: number): void {
    if (!this.remote) return;
    const rtp = buildRtp({ payloadType, sequence: this.sequence, timestamp, ssrc: this.ssrc, marker, payload });
    const packet = this.protector ? this.protector.protect(rtp)! : rtp;
    this.sequence = (this.sequence + 1) & 0xffff;
    this.stats.sent++;
    this.socket.send(packet, this.remote.port, this.remote.address);
  }

  private receive(data: Buffer, from: dgram.RemoteInfo): void {
    const audio = this.audio;
    const plain = audio ? this.unprotect(data) : null;
    const packet = plain ? parseRtp(plain) : null;
    if (
      !audio ||
      !packet ||
      (packet.payloadType !== audio.payloadType && packet.payloadType !== audio.dtmfPayloadType)
    ) {
      this.stats.ignored++;
      return;
    }
    if (!this.latched) {
      // symmetric RTP: behind NAT the far end's packets come from where it can be reached
      this.remote = { address: from.address, port: from.port };
      this.latched = true;
    } else if (!this.remote || from.address !== this.remote.address || from.port !== this.remote.port) {
      this.stats.ignored++;
      return;
    }
    this.stats.received++;
    if (!this.listening) return;
    if (packet.payloadType === audio.dtmfPayloadType) {
      const digit = this.dtmf.accept(packet.timestamp, packet.payload);
      if (digit) for (const listener of this.dtmfListeners) listener(digit);
      return;
    }
    if (packet.ssrc !== this.farSsrc) {
      this.farSsrc = packet.ssrc;
      this.jitter = this.newJitterBuffer();
      this.playout.length = 0;
      this.playoutSamples = 0;
    }
    // 10 to 80 ms of audio: any ptime a trunk uses; anything else is not a voice packet
    if (packet.payload.length < 80 || packet.payload.length > 4 * FRAME_SAMPLES) return;
    this.packetSamples = packet.payload.length;
    this.jitter.push(packet.sequence, decodeG711(audio.codec, packet.payload));
  }

  /** The RTP inside an SRTP packet (as is without SRTP); null for one to drop, counted when it fails authentication. */
  private unprotect(data: Buffer): Buffer | null {
    if (!this.unprotector) return data;
    // RTCP muxed onto the port (RFC 5761: payload types 72-76) would be SRTCP, which Parley does not read
    if (data.length < 2 || ((data[1] & 0x7f) >= 72 && (data[1] & 0x7f) <= 76)) return null;
    const plain = this.unprotector.unprotect(data);
    if (typeof plain !== 'string') return plain;
    if (plain === 'unauthenticated') this.stats.unauthenticated++;
    return null;
  }
}

/**
 * The frames a tick at `now` sends, and when the next one is due: every 20 ms slot whose time has
 * come, after a stall (a busy event loop) at most MAX_CATCH_UP of them late; slots missed beyond
 * that are skipped (resynchronised), never sent in a burst. Each slot is sent once: audio never
 * runs ahead of the clock, however the ticks fall.
 */
export function framesDue(now: number, slot: number): { frames: number; nextTick: number } {
  const due = Math.max(1, Math.floor((now - slot) / FRAME_MS) + 1);
  const frames = Math.min(due, MAX_CATCH_UP + 1);
  return { frames, nextTick: slot + due * FRAME_MS };
}
