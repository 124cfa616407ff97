import type { NegotiatedAudio } from '../call-media.port';
import type { SpeakingAudio } from '../media/speaking-audio';

/** 20 ms at 8 kHz: the pace the call audio hears at, one frame of each channel per step */
const FRAME_SAMPLES = 160;

/** Where the two channels go, 20 ms of interleaved 16-bit little-endian stereo at a time. */
export interface RecordingSink {
  write(stereo: Buffer): void;
}

/**
 * A call's audio as the voice loop sees it, with both directions recorded as two channels
 * (left: the caller, right: the agent). It wraps the media side's SpeakingAudio rather than living
 * in it: the caller is taken from the 20 ms frames the session hears (comfort silence included, so
 * the recording keeps the call's real time), and the agent from what the loop asked it to play, a
 * frame for each frame heard, dropped when playback is cut (barge-in). While the far end holds
 * the call with `inactive` nothing is heard and nothing is recorded.
 */
export class RecordingAudio implements SpeakingAudio {
  private readonly agent: Int16Array[] = [];
  private offset = 0;
  private readonly unsubscribe: () => void;

  constructor(
    private readonly inner: SpeakingAudio,
    private readonly sink: RecordingSink,
  ) {
    this.unsubscribe = inner.onAudio((frame) => this.step(frame));
  }

  get localAddress(): string {
    return this.inner.localAddress;
  }

  get localPort(): number {
    return this.inner.localPort;
  }

  get speaking(): boolean {
    return this.inner.speaking;
  }

  connect(audio: NegotiatedAudio): void {
    this.inner.connect(audio);
  }

  close(): Promise<void> {
    this.unsubscribe();
    return this.inner.close();
  }

  /** stops recording (the call is over); the audio itself is closed by signalling */
  detach(): void {
    this.unsubscribe();
    this.agent.length = 0;
  }

  onAudio(listener: (frame: Int16Array) => void): () => void {
    return this.inner.onAudio(listener);
  }

  onDtmf(listener: (digit: string) => void): () => void {
    return this.inner.onDtmf(listener);
  }

  play(pcm: Int16Array, onFirstPacket?: () => void): Promise<boolean> {
    if (pcm.length > 0) this.agent.push(pcm);
    return this.inner.play(pcm, onFirstPacket);
  }

  stopPlayback(): void {
    this.agent.length = 0;
    this.offset = 0;
    this.inner.stopPlayback();
  }

  sendDigits(digits: string): Promise<void> {
    return this.inner.sendDigits(digits);
  }

  private step(heard: Int16Array): void {
    const said = this.nextSaid();
    const stereo = Buffer.alloc(FRAME_SAMPLES * 4);
    for (let i = 0; i < FRAME_SAMPLES; i++) {
      stereo.writeInt16LE(heard[i] ?? 0, i * 4);
      stereo.writeInt16LE(said[i] ?? 0, i * 4 + 2);
    }
    this.sink.write(stereo);
  }

  /** the next 20 ms the agent says, cut as the session sends it (an utterance's last frame padded with silence) */
  private nextSaid(): Int16Array {
    const frame = new Int16Array(FRAME_SAMPLES);
    const head = this.agent[0];
    if (!head) return frame;
    frame.set(head.subarray(this.offset, this.offset + FRAME_SAMPLES));
    this.offset += FRAME_SAMPLES;
    if (this.offset >= head.length) {
      this.agent.shift();
      this.offset = 0;
    }
    return frame;
  }
}
