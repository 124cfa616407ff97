/**
 * Speech in and speech out as ports: the turn-taking loop speaks 8 kHz PCM (the phone's rate) and
 * hears it; adapters convert to whatever their engine wants.
 */
export interface RecognitionOptions {
  /**
   * What the caller is likely to say (the deployed agent's example queries, small talk): the
   * embedded recogniser builds a grammar of them; hosted ones pass them as a prompt.
   */
  phrases?: readonly string[];
  signal?: AbortSignal;
}

/** A recognition fed while the caller speaks, so the text is ready soon after they stop. */
export interface RecognitionStream {
  write(frame: Int16Array): void;
  /** the caller stopped: the text of everything written ('' when nothing was recognised) */
  finish(): Promise<string>;
  /** the utterance was dropped (too short, the call ended) */
  cancel(): void;
}

export interface SpeechRecognizer {
  readonly name: string;
  /** 8 kHz PCM of one utterance → its text ('' when nothing was recognised) */
  recognize(pcm: Int16Array, options?: RecognitionOptions): Promise<string>;
  /** present when the engine recognises while the caller is still speaking */
  stream?(options?: RecognitionOptions): RecognitionStream;
}

export interface SpeechSynthesizer {
  readonly name: string;
  /** text → 8 kHz PCM */
  synthesize(text: string, signal?: AbortSignal): Promise<Int16Array>;
}

export const SPEECH_RECOGNIZER = Symbol('SpeechRecognizer');
export const SPEECH_SYNTHESIZER = Symbol('SpeechSynthesizer');
