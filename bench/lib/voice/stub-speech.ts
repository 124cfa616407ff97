import type { RecognitionOptions, SpeechRecognizer, SpeechSynthesizer } from '../../../src/voice/speech/speech.port';
import { voicedSpan } from './agent-audio';

/**
 * STUBS, for the bench only (`voice.calls.stubbed`): speech engines that cost next to nothing, so
 * that run measures the platform's own cost per call (SIP, RTP, turn-taking, the engine, the
 * store) without pocketsphinx and espeak-ng. Never wired outside the bench.
 */

/** how long the stub "recognises" (a hosted engine's round trip is far longer; this only keeps it async) */
export const STUB_ASR_DELAY_MS = 5;

/**
 * Answers the known text of the utterance whose voiced length is nearest the audio's: the bench's
 * callers say only pre-rendered utterances of distinct lengths, so their length names them
 * (`samples`: each one's voicedSpan).
 */
export class StubRecognizer implements SpeechRecognizer {
  readonly name = 'stub-asr';

  constructor(private readonly known: ReadonlyArray<{ text: string; samples: number }>) {}

  async recognize(pcm: Int16Array, options?: RecognitionOptions): Promise<string> {
    await new Promise((resolve) => setTimeout(resolve, STUB_ASR_DELAY_MS));
    if (options?.signal?.aborted) return '';
    return nearestByLength(this.known, voicedSpan(pcm));
  }
}

export function nearestByLength(known: ReadonlyArray<{ text: string; samples: number }>, samples: number): string {
  let best = known[0];
  for (const k of known) if (Math.abs(k.samples - samples) < Math.abs(best.samples - samples)) best = k;
  return best?.text ?? '';
}

/** Answers every sentence with the same buffer: 0.6 s of a 300 Hz tone (loud enough to be heard as voiced). */
export class StubSynthesizer implements SpeechSynthesizer {
  readonly name = 'stub-tts';
  private readonly buffer: Int16Array;

  constructor() {
    this.buffer = new Int16Array(4800);
    for (let i = 0; i < this.buffer.length; i++)
      this.buffer[i] = Math.round(6000 * Math.sin((2 * Math.PI * 300 * i) / 8000));
  }

  async synthesize(): Promise<Int16Array> {
    return this.buffer.slice();
  }
}
