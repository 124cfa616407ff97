import { ConfigError } from '../platform/config/config';

/**
 * The voice settings, read from the environment apart from the platform's Config so the media
 * and speech adapters can be configured (and tested) on their own; docs/voice.md lists them.
 */
export interface VoiceConfig {
  rtpPortMin: number;
  rtpPortMax: number;
  asr: {
    engine: 'pocketsphinx' | 'openai' | 'websocket';
    /** base URL (openai: …/v1) or ws(s) URL (websocket); null for pocketsphinx */
    url: string | null;
    apiKey: string | null;
    model: string;
    timeoutMs: number;
  };
  tts: {
    engine: 'espeak-ng' | 'openai';
    url: string | null;
    apiKey: string | null;
    model: string;
    voice: string;
    timeoutMs: number;
  };
  pocketsphinx: { bin: string; modelDir: string };
  espeak: { bin: string; voice: string };
  turnTaking: {
    /** voice activity: the Silero model (the energy threshold when it cannot load), or energy outright */
    vad: 'silero' | 'energy';
    endOfUtteranceMs: number;
    /** the bounds of the end of turn that adapts (an agent's voice settings may set its own) */
    endOfTurnMinMs: number;
    endOfTurnMaxMs: number;
    silencePromptMs: number;
    silencePromptsBeforeHangUp: number;
  };
  /** call recordings (an agent's `voice.recording` setting turns them on) */
  recording: { retentionDays: number };
}

type Env = Record<string, string | undefined>;

function integer(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!/^\d+$/.test(raw)) throw new ConfigError(name, `must be an integer (got ${JSON.stringify(raw)})`);
  const value = Number(raw);
  if (value < min || value > max) throw new ConfigError(name, `must be between ${min} and ${max} (got ${value})`);
  return value;
}

function oneOf<T extends string>(env: Env, name: string, allowed: readonly T[], fallback: T): T {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = raw.toLowerCase() as T;
  if (!allowed.includes(value))
    throw new ConfigError(name, `must be one of ${allowed.join(', ')} (got ${JSON.stringify(raw)})`);
  return value;
}

function url(env: Env, name: string, schemes: RegExp, required: boolean): string | null {
  const raw = env[name];
  if (!raw) {
    if (required) throw new ConfigError(name, 'is required by the chosen engine');
    return null;
  }
  if (!schemes.test(raw))
    throw new ConfigError(name, `must be a URL of ${schemes.source} (got ${JSON.stringify(raw)})`);
  return raw.replace(/\/+$/, '');
}

export function loadVoiceConfig(env: Env = process.env): VoiceConfig {
  const rtpPortMin = integer(env, 'RTP_PORT_MIN', 10000, 1024, 65534);
  const rtpPortMax = integer(env, 'RTP_PORT_MAX', 20000, 1025, 65535);
  if (rtpPortMax < rtpPortMin + 1)
    throw new ConfigError('RTP_PORT_MAX', `must be above RTP_PORT_MIN (got ${rtpPortMax})`);
  const endOfTurnMinMs = integer(env, 'VOICE_END_OF_TURN_MIN_MS', 300, 100, 2000);
  const endOfTurnMaxMs = integer(env, 'VOICE_END_OF_TURN_MAX_MS', 1500, 300, 5000);
  if (endOfTurnMaxMs < endOfTurnMinMs)
    throw new ConfigError(
      'VOICE_END_OF_TURN_MAX_MS',
      `must be at least VOICE_END_OF_TURN_MIN_MS (got ${endOfTurnMaxMs})`,
    );
  const asrEngine = oneOf(env, 'VOICE_ASR', ['pocketsphinx', 'openai', 'websocket'] as const, 'pocketsphinx');
  const ttsEngine = oneOf(env, 'VOICE_TTS', ['espeak-ng', 'openai'] as const, 'espeak-ng');
  return {
    rtpPortMin,
    rtpPortMax,
    asr: {
      engine: asrEngine,
      url:
        asrEngine === 'websocket'
          ? url(env, 'VOICE_ASR_URL', /^wss?:\/\/\S+$/, true)
          : url(env, 'VOICE_ASR_URL', /^https?:\/\/\S+$/, asrEngine === 'openai'),
      apiKey: env.VOICE_ASR_API_KEY || null,
      model: env.VOICE_ASR_MODEL || 'whisper-1',
      timeoutMs: integer(env, 'VOICE_ASR_TIMEOUT_MS', 3000, 100, 60_000),
    },
    tts: {
      engine: ttsEngine,
      url: url(env, 'VOICE_TTS_URL', /^https?:\/\/\S+$/, ttsEngine === 'openai'),
      apiKey: env.VOICE_TTS_API_KEY || null,
      model: env.VOICE_TTS_MODEL || 'tts-1',
      voice: env.VOICE_TTS_VOICE || 'alloy',
      timeoutMs: integer(env, 'VOICE_TTS_TIMEOUT_MS', 3000, 100, 60_000),
    },
    pocketsphinx: {
      bin: env.POCKETSPHINX_BIN || 'pocketsphinx_continuous',
      modelDir: env.POCKETSPHINX_MODEL_DIR || '/usr/share/pocketsphinx/model/en-us',
    },
    espeak: { bin: env.ESPEAK_NG_BIN || 'espeak-ng', voice: env.ESPEAK_NG_VOICE || 'en-us' },
    turnTaking: {
      vad: oneOf(env, 'VOICE_VAD', ['silero', 'energy'] as const, 'silero'),
      endOfUtteranceMs: integer(env, 'VOICE_END_OF_UTTERANCE_MS', 600, 100, 5000),
      endOfTurnMinMs,
      endOfTurnMaxMs,
      silencePromptMs: integer(env, 'VOICE_SILENCE_PROMPT_MS', 8000, 500, 120_000),
      silencePromptsBeforeHangUp: integer(env, 'VOICE_SILENCE_PROMPTS', 2, 0, 10),
    },
    recording: { retentionDays: integer(env, 'VOICE_RECORDING_RETENTION_DAYS', 30, 1, 3650) },
  };
}

export const VOICE_CONFIG = Symbol('VoiceConfig');
