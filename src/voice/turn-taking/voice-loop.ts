import type { SpeakingAudio } from '../media/speaking-audio';
import { sentencesOf } from '../speech/sentences';
import type { RecognitionStream, SpeechRecognizer, SpeechSynthesizer } from '../speech/speech.port';
import { type EndOfTurnBounds, endOfTurnWait } from './end-of-turn';
import { UtteranceDetector } from './utterance-detector';
import type { CallVoiceActivity, VoiceActivity } from './voice-activity';
import type { AgentAnswer, HangUpReason, SpokenLatency, UserTurnInput, VoiceDialogue } from './voice-dialogue.port';

export interface VoiceLoopOptions {
  endOfUtteranceMs: number;
  /**
   * end of turn that adapts: at a pause, what was heard so far is recognised; a complete request
   * ends the turn after `minMs`, a phrase left open only after `maxMs` (end-of-turn.ts). Absent,
   * every pause of `endOfUtteranceMs` ends it.
   */
  endOfTurn?: EndOfTurnBounds;
  silencePromptMs: number;
  /** prompts said into silence before the loop hangs up */
  silencePromptsBeforeHangUp: number;
  silencePrompt?: string;
  /** what callers are likely to say: recognition hints (the agent's example queries, small talk) */
  phrases?: readonly string[];
  /** digits are sent as one turn after this pause, or at once on '#' */
  dtmfInterDigitMs?: number;
  /** the voice activity model (Silero); absent or `energy`, the detector's energy threshold decides */
  voiceActivity?: VoiceActivity;
  now?: () => number;
}

/** One user turn as the loop saw it: the input and its speech stages. */
export interface VoiceTurnRecord {
  text?: string;
  dtmf?: string;
  bargeIn: boolean;
  asr_ms: number;
  tts_ms?: number;
  first_audio_ms?: number;
  /** the answer was not played to its end (barge-in, the call ended) */
  interrupted?: boolean;
}

/**
 * Turn-taking on one call: speaks the greeting, hears each utterance (voice activity, end of
 * utterance after a pause), recognises it, hands it to the dialogue as a user turn and speaks the
 * answer sentence by sentence as it arrives. The caller speaking or pressing a key over an answer
 * stops it (barge-in, flagged on the next turn); digits are user input; silence gets a prompt, and
 * repeated silence a hang-up.
 */
/** what was heard up to a pause, being recognised (pause: the detector's id of it) */
interface PauseRecognition {
  pause: number;
  started: number;
  tookMs: number | null;
  text: Promise<string>;
}

/** the pause at which the loop asks whether the caller has finished */
const PAUSE_MS = 160;

export class VoiceLoop {
  readonly turns: VoiceTurnRecord[] = [];
  private readonly detector: UtteranceDetector;
  private readonly vad: CallVoiceActivity | null;
  /** the recognition started at the caller's latest pause */
  private paused: PauseRecognition | null = null;
  private readonly unsubscribe: (() => void)[] = [];
  private chain: Promise<void> = Promise.resolve();
  private speech: AbortController | null = null;
  private stream: RecognitionStream | null = null;
  private bargedIn = false;
  private silenceTimer: NodeJS.Timeout | null = null;
  private silentPrompts = 0;
  private digits = '';
  private digitTimer: NodeJS.Timeout | null = null;
  private stopped = false;
  private finished!: (reason: HangUpReason) => void;
  /** resolves with the reason the loop ended */
  readonly done = new Promise<HangUpReason>((resolve) => (this.finished = resolve));
  private readonly now: () => number;

  constructor(
    private readonly audio: SpeakingAudio,
    private readonly dialogue: VoiceDialogue,
    private readonly recognizer: SpeechRecognizer,
    private readonly synthesizer: SpeechSynthesizer,
    private readonly options: VoiceLoopOptions,
  ) {
    this.detector = new UtteranceDetector({
      endSilenceMs: options.endOfUtteranceMs,
      // a short pause is when the question of how long to wait is asked; answered in time to end at minMs
      pauseMs: options.endOfTurn ? Math.min(PAUSE_MS, options.endOfTurn.minMs) : undefined,
    });
    this.vad = options.voiceActivity?.forCall() ?? null;
    this.now = options.now ?? Date.now;
  }

  start(): void {
    this.unsubscribe.push(this.audio.onAudio((frame) => this.hear(frame)));
    this.unsubscribe.push(this.audio.onDtmf((digit) => this.digit(digit)));
    this.enqueue(async () => {
      await this.speak(this.dialogue.greet(), null, null);
    });
  }

  /** end the loop without a hang-up of its own (the caller hung up, the call was transferred) */
  stop(): void {
    this.end('stopped', false);
  }

  /**
   * Settles once the work in hand is done: after stop(), an utterance already heard is still
   * recognised and handed to the dialogue (its answer, never played, is reported interrupted), so
   * a caller who hangs up mid-turn does not lose it.
   */
  idle(): Promise<void> {
    return this.chain;
  }

  private hear(frame: Int16Array): void {
    if (this.stopped) return;
    if (!this.vad) return this.heard(frame, undefined);
    // the model's decisions resolve in the order the frames came, so the detector sees them in order
    void this.vad.isSpeech(frame).then((speech) => {
      if (!this.stopped) this.heard(frame, speech);
    });
  }

  private heard(frame: Int16Array, speech: boolean | undefined): void {
    if (this.stream && this.detector.inSpeech) this.stream.write(frame);
    for (const event of this.detector.push(frame, speech)) {
      if (event.type === 'speech-start') {
        this.paused = null;
        this.callerActive();
        if (this.recognizer.stream) {
          this.stream = this.recognizer.stream({ phrases: this.options.phrases });
          for (const f of event.pcm) this.stream.write(f);
        }
      } else if (event.type === 'pause') {
        this.pause(event.pcm, event.pause);
      } else if (event.type === 'discarded') {
        this.paused = null;
        this.stream?.cancel();
        this.stream = null;
        this.armSilence();
      } else {
        const endedAt = this.now();
        const stream = this.stream;
        this.stream = null;
        // nothing was said after the pause that ended it: the pause's recognition is the turn's text
        const heard = event.pause !== undefined && this.paused?.pause === event.pause ? this.paused : null;
        this.paused = null;
        this.enqueue(() => this.utterance(event.pcm, stream, endedAt, heard));
      }
    }
  }

  /**
   * the caller paused mid-utterance: recognise what was heard so far and say how long this pause
   * must last. A streaming recogniser gives no text until the end: its pauses keep the default.
   */
  private pause(pcm: Int16Array, pause: number): void {
    const bounds = this.options.endOfTurn;
    if (!bounds || this.stream) return;
    // until the text is in, the pause may be mid-phrase: a slow recognition must not cut the caller off
    this.detector.waitFor(pause, bounds.maxMs);
    const recognition: PauseRecognition = {
      pause,
      started: this.now(),
      tookMs: null,
      text: this.recognizer.recognize(pcm, { phrases: this.options.phrases }),
    };
    this.paused = recognition;
    void recognition.text
      .catch(() => '')
      .then((text) => {
        recognition.tookMs = this.now() - recognition.started;
        if (this.stopped) return;
        this.detector.waitFor(pause, endOfTurnWait(text, bounds, this.options.endOfUtteranceMs, this.options.phrases));
      });
  }

  private digit(digit: string): void {
    if (this.stopped) return;
    this.callerActive();
    this.digits += digit;
    if (this.digitTimer) clearTimeout(this.digitTimer);
    const send = () => {
      const dtmf = this.digits;
      this.digits = '';
      this.digitTimer = null;
      const endedAt = this.now();
      this.enqueue(() => this.turn({ dtmf, bargeIn: this.takeBargeIn(), latency: { asr_ms: 0 } }, endedAt));
    };
    if (digit === '#') send();
    else this.digitTimer = setTimeout(send, this.options.dtmfInterDigitMs ?? 1500);
  }

  /** the caller spoke or pressed a key: no silence prompt, and whatever the agent says stops */
  private callerActive(): void {
    this.clearSilence();
    this.silentPrompts = 0;
    if (this.speech) {
      this.speech.abort();
      this.speech = null;
      this.audio.stopPlayback();
      this.bargedIn = true;
    }
  }

  private takeBargeIn(): boolean {
    const bargeIn = this.bargedIn;
    this.bargedIn = false;
    return bargeIn;
  }

  private async utterance(
    pcm: Int16Array,
    stream: RecognitionStream | null,
    endedAt: number,
    heard: PauseRecognition | null,
  ): Promise<void> {
    const started = this.now();
    // an engine that fails hears nothing; the caller is asked again by the silence prompt
    const text = await (
      heard?.text ?? (stream ? stream.finish() : this.recognizer.recognize(pcm, { phrases: this.options.phrases }))
    ).catch(() => '');
    if (!text) return this.armSilence();
    // reused, the recognition ran during the pause: its own duration
    const asrMs = heard ? (heard.tookMs ?? this.now() - heard.started) : this.now() - started;
    await this.turn({ text, bargeIn: this.takeBargeIn(), latency: { asr_ms: asrMs } }, endedAt);
  }

  private async turn(input: UserTurnInput, endedAt: number): Promise<void> {
    const record: VoiceTurnRecord = {
      text: input.text,
      dtmf: input.dtmf,
      bargeIn: input.bargeIn,
      asr_ms: input.latency.asr_ms,
    };
    this.turns.push(record);
    const { spoken, interrupted } = await this.speak(this.dialogue.userTurn(input), endedAt, record);
    if (interrupted) record.interrupted = true;
    this.dialogue.answerSpoken?.(spoken, interrupted);
  }

  /**
   * Says an answer sentence by sentence: each is synthesised as soon as the dialogue has produced
   * it and queued behind the one playing, so the first is heard while the rest is generated. A
   * barge-in stops it at once, even while it waits for the model's next sentence: the caller's
   * next turn does not wait for an answer they cut off.
   */
  private async speak(
    answer: Promise<AgentAnswer>,
    fromMs: number | null,
    record: VoiceTurnRecord | null,
  ): Promise<{ spoken: SpokenLatency | null; interrupted: boolean }> {
    const controller = new AbortController();
    // the loop already stopped (the caller hung up mid-turn): the answer is recorded, not said
    if (!this.stopped) this.speech = controller;
    const plays: Promise<boolean>[] = [];
    let ttsMs: number | null = null;
    let firstAudioAt: number | null = null;
    /** part of the answer was left unsaid: cut by barge-in, or the call ended */
    let cut = false;
    const aborted = new Promise<null>((resolve) =>
      controller.signal.addEventListener('abort', () => resolve(null), { once: true }),
    );
    let sentences: AsyncIterator<string> | null = null;
    try {
      sentences = sentencesOf(await answer)[Symbol.asyncIterator]();
      for (;;) {
        const pending = sentences.next();
        pending.catch(() => undefined); // abandoned on a barge-in: its failure is of no interest
        const next = await Promise.race([pending, aborted]);
        if (!next) {
          cut = true;
          break;
        }
        if (next.done) break;
        const sentence = next.value;
        if (controller.signal.aborted || this.stopped) {
          cut = true;
          break;
        }
        const started = this.now();
        const pcm = await this.synthesizer.synthesize(sentence, controller.signal).catch(() => null);
        if (controller.signal.aborted || this.stopped) {
          cut = true;
          break;
        }
        if (!pcm?.length) continue;
        if (ttsMs === null) ttsMs = this.now() - started;
        const first = plays.length === 0;
        plays.push(this.audio.play(pcm, first ? () => (firstAudioAt = this.now()) : undefined));
      }
      if (!(await Promise.all(plays)).every(Boolean)) cut = true;
    } catch {
      // a dialogue that fails mid-answer: say what was said, then listen again
    }
    // an answer cut off is closed; not awaited, as it ends only once its pending piece comes
    if (controller.signal.aborted) void sentences?.return?.(undefined)?.catch(() => undefined);
    if (this.speech === controller) this.speech = null;
    if (!controller.signal.aborted) this.armSilence();
    if (ttsMs === null || firstAudioAt === null) return { spoken: null, interrupted: cut };
    const spoken = { tts_ms: ttsMs, first_audio_ms: fromMs === null ? 0 : firstAudioAt - fromMs };
    if (record) Object.assign(record, spoken);
    return { spoken, interrupted: cut };
  }

  private armSilence(): void {
    this.clearSilence();
    if (this.stopped || this.speech || this.detector.inSpeech) return;
    this.silenceTimer = setTimeout(() => this.silence(), this.options.silencePromptMs);
  }

  private clearSilence(): void {
    if (this.silenceTimer) clearTimeout(this.silenceTimer);
    this.silenceTimer = null;
  }

  private silence(): void {
    this.silenceTimer = null;
    if (this.silentPrompts >= this.options.silencePromptsBeforeHangUp) {
      this.end('silence', true);
      return;
    }
    this.silentPrompts++;
    const prompt = this.options.silencePrompt ?? 'Are you still there?';
    this.enqueue(async () => {
      await this.speak(Promise.resolve(prompt), null, null);
    });
  }

  private end(reason: HangUpReason, hangUp: boolean): void {
    if (this.stopped) return;
    this.stopped = true;
    this.clearSilence();
    if (this.digitTimer) clearTimeout(this.digitTimer);
    this.unsubscribe.splice(0).forEach((off) => off());
    this.speech?.abort();
    this.stream?.cancel();
    this.audio.stopPlayback();
    const said = hangUp ? this.dialogue.hangUp(reason).catch(() => undefined) : Promise.resolve();
    void said.then(() => this.finished(reason));
  }

  private enqueue(step: () => Promise<void>): void {
    this.chain = this.chain.then(step).catch(() => undefined);
  }
}
