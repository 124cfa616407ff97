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
  /** phone calls (docs/voice.md) */
  voice?: VoiceSettings;
  /** personal data kept out of the log (contract §24, docs/privacy.md) */
  privacy?: PrivacySettings;
  /** post-call analysis: the custom fields filled for each ended conversation (contract §24) */
  analysis?: AnalysisSettings;
}

/** How the agent's phone calls behave. */
export interface VoiceSettings {
  /** record each call's audio (both directions) under DATA_DIR; off by default: recordings are personal data */
  recording?: boolean;
}

/** What the conversations of a deployment never record in clear. */
export interface PrivacySettings {
  /** the kinds replaced by their token before anything is appended, in REDACT_KINDS order, no repeats */
  redact?: RedactKind[];
}

/** A change to the settings: a named field is set, `null` puts back the default, an absent one stays. */
export type RuntimeSettingsPatch = { [K in keyof RuntimeSettings]?: RuntimeSettings[K] | null };
