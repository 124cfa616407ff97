import type { RecognitionOptions, RecognitionStream, SpeechRecognizer, SpeechSynthesizer } from './speech.port';

/** the most audio a recognition stream keeps for its fallback (30 s at 8 kHz) */
const MAX_KEPT_SAMPLES = 30 * 8000;

async function withTimeout<T>(
  timeoutMs: number,
  outer: AbortSignal | undefined,
  run: (signal: AbortSignal) => Promise<T>,
): Promise<T> {
  const controller = new AbortController();
  const abort = () => controller.abort();
  outer?.addEventListener('abort', abort, { once: true });
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      controller.abort();
      reject(new Error(`no answer within ${timeoutMs} ms`));
    }, timeoutMs);
  });
  try {
    return await Promise.race([run(controller.signal), timeout]);
  } finally {
    clearTimeout(timer);
    outer?.removeEventListener('abort', abort);
  }
}

export type FallbackNotice = (stage: 'asr' | 'tts', primary: string, error: Error) => void;

/**
 * A hosted recogniser with a deadline: past it, or on any failure, the embedded one hears the same
 * audio, so a slow or broken service costs a turn some latency, never its answer.
 */
export class FallbackRecognizer implements SpeechRecognizer {
  readonly name: string;

  constructor(
    private readonly primary: SpeechRecognizer,
    private readonly fallback: SpeechRecognizer,
    private readonly timeoutMs: number,
    private readonly notice: FallbackNotice = () => undefined,
  ) {
    this.name = `${primary.name}→${fallback.name}`;
  }

  async recognize(pcm: Int16Array, options: RecognitionOptions = {}): Promise<string> {
    try {
      return await withTimeout(this.timeoutMs, options.signal, (signal) =>
        this.primary.recognize(pcm, { ...options, signal }),
      );
    } catch (error) {
      if (options.signal?.aborted) throw error;
      this.notice('asr', this.primary.name, error as Error);
      return this.fallback.recognize(pcm, options);
    }
  }

  stream(options: RecognitionOptions = {}): RecognitionStream {
    const primary = this.primary.stream?.(options);
    const kept: Int16Array[] = [];
    let keptSamples = 0;
    return {
      write: (frame) => {
        if (keptSamples < MAX_KEPT_SAMPLES) {
          kept.push(frame.slice());
          keptSamples += frame.length;
        }
        primary?.write(frame);
      },
      finish: async () => {
        const pcm = new Int16Array(keptSamples);
        let at = 0;
        for (const f of kept) {
          pcm.set(f, at);
          at += f.length;
        }
        if (!primary) return this.recognize(pcm, options);
        try {
          return await withTimeout(this.timeoutMs, options.signal, () => primary.finish());
        } catch (error) {
          primary.cancel();
          if (options.signal?.aborted) throw error;
          this.notice('asr', this.primary.name, error as Error);
          return this.fallback.recognize(pcm, options);
        }
      },
      cancel: () => primary?.cancel(),
    };
  }
}

/** The same for speech synthesis: past the deadline the embedded voice says the sentence. */
export class FallbackSynthesizer implements SpeechSynthesizer {
  readonly name: string;

  constructor(
    private readonly primary: SpeechSynthesizer,
    private readonly fallback: SpeechSynthesizer,
    private readonly timeoutMs: number,
    private readonly notice: FallbackNotice = () => undefined,
  ) {
    this.name = `${primary.name}→${fallback.name}`;
  }

  async synthesize(text: string, signal?: AbortSignal): Promise<Int16Array> {
    try {
      return await withTimeout(this.timeoutMs, signal, (s) => this.primary.synthesize(text, s));
    } catch (error) {
      if (signal?.aborted) throw error;
      this.notice('tts', this.primary.name, error as Error);
      return this.fallback.synthesize(text, signal);
    }
  }
}
