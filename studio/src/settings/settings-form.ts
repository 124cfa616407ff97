import {
  checkSetting,
  settingKey,
  type ModelSettings,
  type RetrievalSettings,
  type RuntimeSettings,
  type RuntimeSettingsPatch,
  type SettingsField,
} from '../../../src/agents/runtime-settings';
import { DomainError } from '../../../src/platform/errors/domain-error';
import type { Environment } from '../api/types';

/**
 * The runtime settings form (issue 50) as plain data: what the inputs hold, the settings value
 * each field stands for, and the API's own checks on it. The checks are the server's
 * (`src/agents/runtime-settings.ts`, bundled as the actions parser is), so a field Studio marks as
 * wrong is one the API would refuse; what only the server knows (whether an endpoint name exists)
 * comes back as its 400 envelope.
 */

/** The fields this form edits; the others (privacy, analysis, per-environment retrieval) are kept as they are. */
const EDITED: readonly SettingsField[] = [
  'confidence_threshold',
  'fallback_text',
  'small_talk',
  'model',
  'environment_models',
  'retrieval',
  'voice',
];

/** `default` is the agent's `model`; each environment may have its own, in place of it there. */
export type ModelSlot = 'default' | Environment;
export const MODEL_SLOTS: ModelSlot[] = ['default', 'sandbox', 'pre-release', 'live'];

export interface ModelDraft {
  /** set: the slot has a model; unset: none (the default model, or `model`, answers there) */
  set: boolean;
  provider: string;
  model: string;
  temperature: string;
  max_tokens: string;
  endpoint: string;
}

export interface SettingsDraft {
  /** empty: the platform's default */
  confidence_threshold: string;
  fallback_text: string;
  small_talk: boolean;
  models: Record<ModelSlot, ModelDraft>;
  retrieval_mode: string;
  retrieval_endpoint: string;
  retrieval_timeout_ms: string;
  retrieval_min_similarity: string;
  recording: boolean;
}

const text = (n: number | undefined) => (n === undefined ? '' : String(n));
/** what a number input holds, as the API would read it: blank is absent, anything else a number or the text itself (refused) */
const numberOf = (s: string): unknown => {
  const t = s.trim();
  if (t === '') return undefined;
  const n = Number(t);
  return Number.isNaN(n) ? t : n;
};

function modelDraft(m: ModelSettings | undefined): ModelDraft {
  return {
    set: !!m,
    provider: m?.provider ?? 'openai',
    model: m?.model ?? '',
    temperature: text(m?.temperature),
    max_tokens: text(m?.max_tokens),
    endpoint: m?.endpoint ?? '',
  };
}

/** The form's inputs for a branch's settings (defaults filled in, as GET answers them). */
export function draftOf(settings: RuntimeSettings, customized: readonly string[]): SettingsDraft {
  const models = { default: modelDraft(settings.model) } as Record<ModelSlot, ModelDraft>;
  for (const env of MODEL_SLOTS.slice(1) as Environment[]) models[env] = modelDraft(settings.environment_models?.[env]);
  const retrieval: RetrievalSettings = settings.retrieval ?? { mode: 'lexical' };
  return {
    // the default threshold follows the platform's: shown blank until the agent sets its own
    confidence_threshold: customized.includes('confidence_threshold') ? text(settings.confidence_threshold) : '',
    fallback_text: settings.fallback_text ?? '',
    small_talk: settings.small_talk ?? true,
    models,
    retrieval_mode: retrieval.mode,
    retrieval_endpoint: retrieval.endpoint ?? '',
    retrieval_timeout_ms: text(retrieval.timeout_ms),
    retrieval_min_similarity: text(retrieval.min_similarity),
    recording: settings.voice?.recording ?? false,
  };
}

function modelValue(d: ModelDraft): unknown {
  if (!d.set) return null;
  const out: Record<string, unknown> = { provider: d.provider };
  // blank: no model named (the API requires one unless the provider is embedded)
  if (d.model !== '') out.model = d.model;
  const temperature = numberOf(d.temperature);
  if (temperature !== undefined) out.temperature = temperature;
  const maxTokens = numberOf(d.max_tokens);
  if (maxTokens !== undefined) out.max_tokens = maxTokens;
  if (d.endpoint.trim() !== '') out.endpoint = d.endpoint.trim();
  return out;
}

/** Each edited field's value as the PUT would carry it (`null`: the default). */
export function valuesOf(d: SettingsDraft): Record<SettingsField, unknown> {
  const byEnv: Record<string, unknown> = {};
  for (const env of MODEL_SLOTS.slice(1)) {
    const v = modelValue(d.models[env]);
    if (v !== null) byEnv[env] = v;
  }
  const retrieval: Record<string, unknown> = { mode: d.retrieval_mode };
  if (d.retrieval_endpoint.trim() !== '') retrieval.endpoint = d.retrieval_endpoint.trim();
  const timeout = numberOf(d.retrieval_timeout_ms);
  if (timeout !== undefined) retrieval.timeout_ms = timeout;
  const similarity = numberOf(d.retrieval_min_similarity);
  if (similarity !== undefined) retrieval.min_similarity = similarity;
  const threshold = numberOf(d.confidence_threshold);
  return {
    confidence_threshold: threshold === undefined ? null : threshold,
    fallback_text: d.fallback_text,
    small_talk: d.small_talk,
    model: modelValue(d.models.default),
    environment_models: Object.keys(byEnv).length ? byEnv : null,
    retrieval,
    voice: { recording: d.recording },
  } as Record<SettingsField, unknown>;
}

/** The API's refusal of each field that has one, by the field's path (`environment_models.live.temperature`). */
export function problemsOf(values: Record<SettingsField, unknown>): Record<string, string> {
  const problems: Record<string, string> = {};
  for (const field of EDITED) {
    try {
      checkSetting(field, values[field]);
    } catch (error) {
      const named = error instanceof DomainError ? error.fieldErrors[0] : undefined;
      problems[named?.field ?? field] = named?.message ?? (error as Error).message;
    }
  }
  return problems;
}

export interface Change {
  field: string;
  before: unknown;
  after: unknown;
}

/**
 * What the PUT would change, field by field, against the branch as loaded (both read through the
 * form, so an unchanged field compares equal): only these are sent, so a field someone else
 * changed on the branch meanwhile stays theirs (the API leaves an absent field as it is).
 */
export function changesOf(values: Record<SettingsField, unknown>, loaded: Record<SettingsField, unknown>): Change[] {
  return EDITED.filter((field) => settingKey(values[field]) !== settingKey(loaded[field])).map((field) => ({
    field,
    before: loaded[field] ?? 'default',
    after: values[field] ?? 'default',
  }));
}

export const patchOf = (changes: Change[]): RuntimeSettingsPatch =>
  Object.fromEntries(changes.map((c) => [c.field, c.after === 'default' ? null : c.after])) as RuntimeSettingsPatch;

export const show = (value: unknown) => (typeof value === 'string' ? value : JSON.stringify(value));
