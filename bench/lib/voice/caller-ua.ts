import { randomUUID } from 'node:crypto';
import dgram from 'node:dgram';
import { performance } from 'node:perf_hooks';
import {
  buildAck,
  buildBye,
  buildInvite,
  buildResponse,
  headerOf,
  newBranch,
  parseSipMessage,
  serialize,
  tagOf,
  uriOf,
  type DialogIds,
  type SipMessage,
} from '../../../src/sip/sip-message';
import { buildOffer, parseSdp, readAnswer } from '../../../src/sip/sdp';
import type { NegotiatedAudio } from '../../../src/voice/call-media.port';
import { decodeG711, encodeG711, silenceByte } from '../../../src/voice/media/g711';
import { buildRtp, parseRtp } from '../../../src/voice/media/rtp-packet';
import { AgentAudioWatch } from './agent-audio';

/** samples in one 20 ms packet at 8 kHz */
const FRAME = 160;

/**
 * The bench's caller: a SIP user agent over UDP on 127.0.0.1 with a bare RTP endpoint of its own
 * (no jitter buffer, no playout clock), so each packet of the agent's voice is timed as it
 * arrives, not when a buffer releases it. Parley's own SIP message builders write the signalling.
 * Sending is paced from outside (`tick`, every 20 ms, one driver-wide clock for every call).
 */
export class CallerUa {
  readonly watch = new AgentAudioWatch();
  private dialog!: DialogIds;
  private audio: NegotiatedAudio | null = null;
  private answered: ((status: number) => void) | null = null;
  /** frames still to say, and who waits for the last one to leave */
  private queue: Uint8Array[] = [];
  private saidLast: ((at: number) => void) | null = null;
  private sequence = Math.floor(Math.random() * 0xffff);
  private timestamp = Math.floor(Math.random() * 0xffffffff);
  private readonly ssrc = Math.floor(Math.random() * 0xffffffff);
  private cseq = 1;
  hungUpByParley = false;

  private constructor(
    private readonly sip: dgram.Socket,
    private readonly rtp: dgram.Socket,
  ) {
    sip.on('message', (data) => this.onSip(data.toString('utf8')));
    rtp.on('message', (data) => this.onRtp(data));
  }

  static async open(): Promise<CallerUa> {
    const bind = async () => {
      const socket = dgram.createSocket('udp4');
      await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
      return socket;
    };
    return new CallerUa(await bind(), await bind());
  }

  /** INVITE sip:<number>@127.0.0.1:<port>; resolves with the final status (a 200 is ACKed and the audio connected) */
  call(port: number, number: string, from: string): Promise<number> {
    this.dialog = {
      callId: randomUUID(),
      localUri: `sip:${from}@127.0.0.1`,
      localTag: randomUUID().slice(0, 8),
      remoteUri: `sip:${number}@127.0.0.1:${port}`,
      remoteTag: null,
      remoteTarget: `sip:${number}@127.0.0.1:${port}`,
      localAddress: `127.0.0.1:${this.sip.address().port}`,
    };
    const sdp = buildOffer(
      { address: '127.0.0.1', port: this.rtp.address().port, sessionId: '1', version: 1 },
      'RTP/AVP',
      null,
    );
    const done = new Promise<number>((resolve) => (this.answered = resolve));
    this.send(buildInvite(this.dialog, newBranch(randomUUID()), [], sdp));
    return done;
  }

  /** queues PCM to say; resolves with the time its last packet left */
  say(pcm: Int16Array): Promise<number> {
    if (!this.audio) return Promise.reject(new Error('the call has no audio'));
    for (let i = 0; i < pcm.length; i += FRAME) {
      const frame = new Int16Array(FRAME);
      frame.set(pcm.subarray(i, Math.min(i + FRAME, pcm.length)));
      this.queue.push(encodeG711(this.audio.codec, frame));
    }
    return new Promise((resolve) => (this.saidLast = resolve));
  }

  /** sends this 20 ms's packet: the next frame said, or the codec's silence (a phone never stops sending) */
  tick(): void {
    const audio = this.audio;
    if (!audio || this.hungUpByParley) return;
    const payload = this.queue.shift() ?? new Uint8Array(FRAME).fill(silenceByte(audio.codec));
    const packet = buildRtp({
      payloadType: audio.payloadType,
      sequence: this.sequence++,
      timestamp: (this.timestamp += FRAME),
      ssrc: this.ssrc,
      marker: false,
      payload,
    });
    this.rtp.send(packet, audio.remotePort, audio.remoteAddress);
    if (this.queue.length === 0 && this.saidLast) {
      const resolve = this.saidLast;
      this.saidLast = null;
      resolve(performance.now());
    }
  }

  hangUp(): void {
    if (this.dialog?.remoteTag) this.send(buildBye(this.dialog, newBranch(randomUUID()), ++this.cseq));
  }

  async close(): Promise<void> {
    this.audio = null;
    await Promise.all([this.sip, this.rtp].map((s) => new Promise<void>((resolve) => s.close(() => resolve()))));
  }

  private onRtp(data: Buffer): void {
    const at = performance.now();
    const audio = this.audio;
    const packet = audio ? parseRtp(data) : null;
    if (!audio || !packet || packet.payloadType !== audio.payloadType) return;
    this.watch.push(decodeG711(audio.codec, packet.payload), at);
  }

  private onSip(text: string): void {
    const message: SipMessage | null = parseSipMessage(text);
    if (!message) return;
    if (message.kind === 'request') {
      if (message.method === 'BYE') {
        this.hungUpByParley = true;
        this.send(buildResponse(message, 200, 'OK'));
      }
      return;
    }
    if (headerOf(message, 'cseq')?.endsWith('INVITE') !== true || message.status < 200) return;
    if (message.status < 300 && !this.audio) {
      this.dialog.remoteTag = tagOf(headerOf(message, 'to'));
      this.dialog.remoteTarget = uriOf(headerOf(message, 'contact')) ?? this.dialog.remoteTarget;
      const answer = parseSdp(message.body);
      this.audio = answer ? readAnswer(answer) : null;
    }
    // every final response is ACKed, a retransmitted 200 too
    this.send(buildAck(this.dialog, this.dialog.remoteUri, newBranch(randomUUID()), message.status < 300));
    this.answered?.(message.status < 300 && !this.audio ? 488 : message.status);
    this.answered = null;
  }

  private send(message: Parameters<typeof serialize>[0]): void {
    const [host, port] = this.dialog.remoteUri.replace(/^sip:[^@]*@/, '').split(':');
    this.sip.send(serialize(message), Number(port), host);
  }
}
