import type { VoiceConfig } from '../voice-config';
import { EspeakSynthesizer } from './espeak-synthesizer';
import { FallbackRecognizer, FallbackSynthesizer, type FallbackNotice } from './fallback-speech';
import { OpenAiRecognizer, OpenAiSynthesizer } from './openai-speech';
import { PocketsphinxRecognizer } from './pocketsphinx-recognizer';
import type { SpeechRecognizer, SpeechSynthesizer } from './speech.port';
import { WebSocketRecognizer } from './websocket-recognizer';

/** The recogniser VOICE_ASR names; a hosted one falls back to the embedded one. */
export function recognizerFor(config: VoiceConfig, notice?: FallbackNotice): SpeechRecognizer {
  const embedded = new PocketsphinxRecognizer(config.pocketsphinx.bin, config.pocketsphinx.modelDir);
  const { engine, url, apiKey, model, timeoutMs } = config.asr;
  if (engine === 'pocketsphinx' || !url) return embedded;
  const hosted =
    engine === 'openai' ? new OpenAiRecognizer({ url, apiKey, model }) : new WebSocketRecognizer(url, apiKey);
  return new FallbackRecognizer(hosted, embedded, timeoutMs, notice);
}

/** The synthesiser VOICE_TTS names; a hosted one falls back to espeak-ng. */
export function synthesizerFor(config: VoiceConfig, notice?: FallbackNotice): SpeechSynthesizer {
  const embedded = new EspeakSynthesizer(config.espeak.bin, config.espeak.voice);
  const { engine, url, apiKey, model, voice, timeoutMs } = config.tts;
  if (engine === 'espeak-ng' || !url) return embedded;
  return new FallbackSynthesizer(new OpenAiSynthesizer({ url, apiKey, model, voice }), embedded, timeoutMs, notice);
}
