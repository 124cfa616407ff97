/* The shapes of an agent's runtime settings (runtime-settings.ts checks and merges them). */
import type { RedactKind } from '../privacy/redact-kinds';
import type { AnalysisSettings } from './analysis-settings';

/** Who serves the model: every provider but `embedded` speaks the OpenAI-compatible chat protocol. */
export const MODEL_PROVIDERS = ['openai', 'openai_compatible', 'embedded'] as const;
export type ModelProvider = (typeof MODEL_PROVIDERS)[number];

/** The model an agent answers with. `endpoint` names an operator's endpoint; absent: LLM_BASE_URL. */
export interface ModelSettings {
  provider: ModelProvider;
  model?: string;
  temperature?: number;
  max_tokens?: number;
  endpoint?: string;
}

/**
 * An agent's runtime settings as a branch holds them: only what was set. An absent field means the
 * platform's default, so a default that improves (the retrieval threshold) reaches every agent
 * that never chose its own.
 */
export interface RuntimeSettings {
  confidence_threshold?: number;
  fallback_text?: string;
  small_talk?: boolean;
  model?: ModelSettings;
  /** by environment (agent.events.ts ENVIRONMENTS; named here as strings so the events can import this file) */
  environment_models?: Partial<Record<'sandbox' | 'pre-release' | 'live', ModelSettings>>;
  /** how topics are retrieved: lexical (BM25) or hybrid with an operator's embeddings endpoint (docs/retrieval.md) */
  retrieval?: RetrievalSettings;
  /** by environment, in place of `retrieval` there */
  environment_retrieval?: Partial<Record<'sandbox' | 'pre-release' | 'live', RetrievalSettings>>;
  /** phone calls (docs/voice.md) */
  voice?: VoiceSettings;
  /** personal data kept out of the log (contract §24, docs/privacy.md) */
  privacy?: PrivacySettings;
  /** post-call analysis: the custom fields filled for each ended conversation (contract §24) */
  analysis?: AnalysisSettings;
}

export const RETRIEVAL_MODES = ['lexical', 'hybrid'] as const;
export type RetrievalMode = (typeof RETRIEVAL_MODES)[number];

/**
 * How the agent's topics are retrieved. `hybrid` also ranks them by embedding similarity through
 * `endpoint` (an operator's embeddings endpoint, required), fused with the lexical ranking.
 */
export interface RetrievalSettings {
  mode: RetrievalMode;
  endpoint?: string;
  /** how long a turn waits for its text's vector before it answers lexically (default RETRIEVAL_EMBEDDING_TIMEOUT_MS) */
  timeout_ms?: number;
  /** the cosine similarity at which a topic's vector alone may count as confidence (default 0.5) */
  min_similarity?: number;
}

/** How the agent's phone calls behave. */
export interface VoiceSettings {
  /** record each call's audio (both directions) under DATA_DIR; off by default: recordings are personal data */
  recording?: boolean;
  /** a pause after a complete request ends the turn after this (ms, 100-2000; default VOICE_END_OF_TURN_MIN_MS) */
  end_of_turn_min_ms?: number;
  /** a pause mid-phrase ("I'd like to… um") ends it only after this (ms, 300-5000, ≥ the min; default VOICE_END_OF_TURN_MAX_MS) */
  end_of_turn_max_ms?: number;
}

/** What the conversations of a deployment never record in clear. */
export interface PrivacySettings {
  /** the kinds replaced by their token before anything is appended, in REDACT_KINDS order, no repeats */
  redact?: RedactKind[];
}

/** A change to the settings: a named field is set, `null` puts back the default, an absent one stays. */
export type RuntimeSettingsPatch = { [K in keyof RuntimeSettings]?: RuntimeSettings[K] | null };
