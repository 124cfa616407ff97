import { rms } from '../media/resample';

/**
 * Voice activity and end of utterance, frame by frame (20 ms at 8 kHz): a frame is speech when the
 * caller says so (the Silero model's decision, voice-activity.ts) or, without one, when its
 * energy stands well above an adaptive noise floor (the quiet frames' level);
 * speech starts after a few speech frames in a row, and an utterance ends after `endSilenceMs` of
 * non-speech. Pure and clock-free: time is counted in frames.
 */
export interface UtteranceDetectorOptions {
  endSilenceMs: number;
  /** speech shorter than this is a click or a cough, not an utterance */
  minSpeechMs?: number;
  /** an utterance this long ends even if the caller has not paused */
  maxUtteranceMs?: number;
  /**
   * a pause this long (at most) inside an utterance emits `pause`, so the caller can say how long
   * this one should last (`waitFor`); absent, no pause events
   */
  pauseMs?: number;
}

export type UtteranceEvent =
  /** `pcm`: what was heard so far (the pre-roll and the frames that started speech) */
  | { type: 'speech-start'; pcm: Int16Array[] }
  /** `pause`: the pause that ended it, when one was reported and the caller did not speak since */
  | { type: 'utterance'; pcm: Int16Array; pause?: number }
  | { type: 'discarded' }
  /** the caller paused: `pcm` is what was heard so far; `pause` names it for waitFor */
  | { type: 'pause'; pcm: Int16Array; pause: number };

const FRAME_MS = 20;
const START_FRAMES = 3;
/** frames kept from before speech was detected, so the utterance's first syllable is not cut */
const PRE_ROLL_FRAMES = 10;
/** the floor never drops below this (a digital-silence line would make every click speech) */
const MIN_FLOOR = 60;
/** speech is this many times the floor, and at least MIN_SPEECH_LEVEL */
const SPEECH_RATIO = 3;
const MIN_SPEECH_LEVEL = 300;

export class UtteranceDetector {
  private floor = MIN_FLOOR;
  private speaking = false;
  private run = 0;
  private silence = 0;
  private speechFrames = 0;
  private readonly preRoll: Int16Array[] = [];
  private frames: Int16Array[] = [];
  /** the end silence of the current pause (the default until waitFor says otherwise) */
  private endSilenceMs: number;
  private pauses = 0;
  /** the pause reported in the current run of silence */
  private pauseInRun: number | null = null;

  constructor(private readonly options: UtteranceDetectorOptions) {
    this.endSilenceMs = options.endSilenceMs;
  }

  /**
   * how long pause `pause` must last to end the utterance; ignored once the caller spoke again
   * (their next pause is decided afresh). A wait already exceeded ends it at the next frame.
   */
  waitFor(pause: number, endSilenceMs: number): void {
    if (this.speaking && pause === this.pauses && this.silence > 0) this.endSilenceMs = endSilenceMs;
  }

  get inSpeech(): boolean {
    return this.speaking;
  }

  isSpeech(frame: Int16Array): boolean {
    return rms(frame) > Math.max(this.floor * SPEECH_RATIO, MIN_SPEECH_LEVEL);
  }

  /** `speech`: the voice activity model's decision on this frame; absent, the energy test decides */
  push(frame: Int16Array, speech: boolean = this.isSpeech(frame)): UtteranceEvent[] {
    const level = rms(frame);
    // minimum tracking: the floor drops to quiet frames at once and creeps up under steady sound,
    // so a noisy line stops counting as speech after a second or two
    if (level < this.floor) this.floor = Math.max(MIN_FLOOR, this.floor * 0.7 + level * 0.3);
    else this.floor *= 1.02;
    if (!this.speaking) {
      this.preRoll.push(frame);
      if (this.preRoll.length > PRE_ROLL_FRAMES) this.preRoll.shift();
      this.run = speech ? this.run + 1 : 0;
      if (this.run < START_FRAMES) return [];
      this.speaking = true;
      this.frames = this.preRoll.splice(0);
      this.speechFrames = this.run;
      this.silence = 0;
      return [{ type: 'speech-start', pcm: [...this.frames] }];
    }
    this.frames.push(frame);
    if (speech) {
      this.speechFrames++;
      if (this.silence > 0) this.endSilenceMs = this.options.endSilenceMs;
      this.silence = 0;
      this.pauseInRun = null;
    } else {
      this.silence++;
    }
    const ended = this.silence * FRAME_MS >= this.endSilenceMs;
    const tooLong = this.frames.length * FRAME_MS >= (this.options.maxUtteranceMs ?? 15_000);
    if (ended || tooLong) return [this.end()];
    const { pauseMs } = this.options;
    if (pauseMs !== undefined && this.silence === Math.max(1, Math.round(pauseMs / FRAME_MS))) {
      this.pauseInRun = ++this.pauses;
      return [{ type: 'pause', pcm: this.joined(), pause: this.pauseInRun }];
    }
    return [];
  }

  /** forget a half-heard utterance (the agent took the turn some other way, the call ended) */
  reset(): void {
    this.speaking = false;
    this.endSilenceMs = this.options.endSilenceMs;
    this.pauseInRun = null;
    this.run = 0;
    this.frames = [];
    this.preRoll.length = 0;
  }

  private end(): UtteranceEvent {
    const frames = this.frames;
    const pause = this.pauseInRun ?? undefined;
    this.reset();
    if (this.speechFrames * FRAME_MS < (this.options.minSpeechMs ?? 200)) return { type: 'discarded' };
    return pause === undefined
      ? { type: 'utterance', pcm: join(frames) }
      : { type: 'utterance', pcm: join(frames), pause };
  }

  private joined(): Int16Array {
    return join(this.frames);
  }
}

function join(frames: Int16Array[]): Int16Array {
  const pcm = new Int16Array(frames.reduce((n, f) => n + f.length, 0));
  let at = 0;
  for (const f of frames) {
    pcm.set(f, at);
    at += f.length;
  }
  return pcm;
}
