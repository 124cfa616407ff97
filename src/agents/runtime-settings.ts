import { invalidField } from '../platform/validation/field-checks';
import { REDACT_KINDS } from '../privacy/redact-kinds';
import { checkAnalysis } from './analysis-settings';
import { ENVIRONMENTS, type Environment } from './agent.events';
import {
  MODEL_PROVIDERS,
  RETRIEVAL_MODES,
  type ModelProvider,
  type ModelSettings,
  type PrivacySettings,
  type RetrievalMode,
  type RetrievalSettings,
  type RuntimeSettings,
  type RuntimeSettingsPatch,
  type VoiceSettings,
} from './runtime-settings.types';

export * from './runtime-settings.types';

export const SETTINGS_FIELDS = [
  'confidence_threshold',
  'fallback_text',
  'small_talk',
  'model',
  'environment_models',
  'retrieval',
  'environment_retrieval',
  'voice',
  'privacy',
  'analysis',
] as const satisfies ReadonlyArray<keyof RuntimeSettings>;
export type SettingsField = (typeof SETTINGS_FIELDS)[number];

export const MAX_FALLBACK_TEXT = 2000;
/** Bounds of `retrieval.timeout_ms`: a turn waits at most this long for its text's vector. */
export const RETRIEVAL_TIMEOUT_LIMITS = { min: 50, max: 10_000 } as const;
export const MAX_TOKENS_LIMIT = 32_768;

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

function checkModel(field: string, value: unknown): ModelSettings {
  if (!isObject(value)) throw invalidField(field, `${field} must be an object`);
  const known = new Set(['provider', 'model', 'temperature', 'max_tokens', 'endpoint']);
  for (const key of Object.keys(value))
    if (!known.has(key)) throw invalidField(`${field}.${key}`, `${field}.${key} is not a model setting`);
  const { provider, model, temperature, max_tokens, endpoint } = value;
  if (typeof provider !== 'string' || !(MODEL_PROVIDERS as readonly string[]).includes(provider))
    throw invalidField(`${field}.provider`, `${field}.provider must be one of ${MODEL_PROVIDERS.join(', ')}`);
  const out: ModelSettings = { provider: provider as ModelProvider };
  if (model !== undefined) {
    if (typeof model !== 'string' || model.trim().length === 0 || model.length > 200)
      throw invalidField(`${field}.model`, `${field}.model must be a string of 1 to 200 characters`);
    out.model = model;
  } else if (provider !== 'embedded')
    throw invalidField(`${field}.model`, `${field}.model is required unless the provider is embedded`);
  if (temperature !== undefined) {
    if (typeof temperature !== 'number' || !Number.isFinite(temperature) || temperature < 0 || temperature > 2)
      throw invalidField(`${field}.temperature`, `${field}.temperature must be a number from 0 to 2`);
    out.temperature = temperature;
  }
  if (max_tokens !== undefined) {
    if (!Number.isSafeInteger(max_tokens) || (max_tokens as number) < 1 || (max_tokens as number) > MAX_TOKENS_LIMIT)
      throw invalidField(`${field}.max_tokens`, `${field}.max_tokens must be an integer from 1 to ${MAX_TOKENS_LIMIT}`);
    out.max_tokens = max_tokens as number;
  }
  if (endpoint !== undefined) {
    if (typeof endpoint !== 'string' || !ENDPOINT_NAME.test(endpoint))
      throw invalidField(`${field}.endpoint`, `${field}.endpoint must be an endpoint name (${ENDPOINT_NAME_RULE})`);
    out.endpoint = endpoint;
  }
  return out;
}

function checkRetrieval(field: string, value: unknown): RetrievalSettings {
  if (!isObject(value)) throw invalidField(field, `${field} must be an object`);
  const known = new Set(['mode', 'endpoint', 'timeout_ms', 'min_similarity']);
  for (const key of Object.keys(value))
    if (!known.has(key)) throw invalidField(`${field}.${key}`, `${field}.${key} is not a retrieval setting`);
  const { mode, endpoint, timeout_ms, min_similarity } = value;
  if (typeof mode !== 'string' || !(RETRIEVAL_MODES as readonly string[]).includes(mode))
    throw invalidField(`${field}.mode`, `${field}.mode must be one of ${RETRIEVAL_MODES.join(', ')}`);
  const out: RetrievalSettings = { mode: mode as RetrievalMode };
  if (endpoint !== undefined && endpoint !== null) {
    if (typeof endpoint !== 'string' || !ENDPOINT_NAME.test(endpoint))
      throw invalidField(`${field}.endpoint`, `${field}.endpoint must be an endpoint name (${ENDPOINT_NAME_RULE})`);
    out.endpoint = endpoint;
  } else if (mode === 'hybrid')
    throw invalidField(`${field}.endpoint`, `${field}.endpoint is required when the mode is hybrid`);
  if (timeout_ms !== undefined && timeout_ms !== null) {
    const { min, max } = RETRIEVAL_TIMEOUT_LIMITS;
    if (!Number.isSafeInteger(timeout_ms) || (timeout_ms as number) < min || (timeout_ms as number) > max)
      throw invalidField(`${field}.timeout_ms`, `${field}.timeout_ms must be an integer from ${min} to ${max}`);
    out.timeout_ms = timeout_ms as number;
  }
  if (min_similarity !== undefined && min_similarity !== null) {
    if (
      typeof min_similarity !== 'number' ||
      !Number.isFinite(min_similarity) ||
      min_similarity < 0 ||
      min_similarity > 1
    )
      throw invalidField(`${field}.min_similarity`, `${field}.min_similarity must be a number from 0 to 1`);
    out.min_similarity = min_similarity;
  }
  return out;
}

/** `environment_models` and `environment_retrieval`: one value per environment, each checked like the field it stands for. */
function byEnvironment<T>(field: string, value: unknown, check: (at: string, v: unknown) => T) {
  if (!isObject(value)) throw invalidField(field, `${field} must be an object`);
  const out: Partial<Record<Environment, T>> = {};
  for (const [env, v] of Object.entries(value)) {
    if (!(ENVIRONMENTS as readonly string[]).includes(env))
      throw invalidField(`${field}.${env}`, `${field} keys must be ${ENVIRONMENTS.join(', ')}`);
    if (v !== null && v !== undefined) out[env as Environment] = check(`${field}.${env}`, v);
  }
  return Object.keys(out).length ? out : undefined;
}

export const ENDPOINT_NAME = /^[a-z0-9][a-z0-9_-]{0,62}$/;
export const ENDPOINT_NAME_RULE = 'lowercase letters, digits, - and _, 1 to 63 characters';

/**
 * One setting's value, checked (null: the default, returned as undefined). The DTO refuses bad
 * input at the door; the decider and a merge's explicit resolution values pass here too, so no
 * malformed setting is ever recorded.
 */
export function checkSetting<F extends SettingsField>(field: F, value: unknown): RuntimeSettings[F] | undefined {
  if (value === null || value === undefined) return undefined;
  switch (field) {
    case 'confidence_threshold':
      if (typeof value !== 'number' || !Number.isFinite(value) || value < 0 || value > 1)
        throw invalidField(field, 'confidence_threshold must be a number from 0 to 1');
      return value as RuntimeSettings[F];
    case 'fallback_text':
      if (typeof value !== 'string' || value.trim().length === 0 || value.length > MAX_FALLBACK_TEXT)
        throw invalidField(field, `fallback_text must be a string of 1 to ${MAX_FALLBACK_TEXT} characters`);
      return value as RuntimeSettings[F];
    case 'small_talk':
      if (typeof value !== 'boolean') throw invalidField(field, 'small_talk must be a boolean');
      return value as RuntimeSettings[F];
    case 'model':
      return checkModel('model', value) as RuntimeSettings[F];
    case 'environment_models':
      return byEnvironment(field, value, checkModel) as RuntimeSettings[F];
    case 'retrieval':
      return checkRetrieval(field, value) as RuntimeSettings[F];
    case 'environment_retrieval':
      return byEnvironment(field, value, checkRetrieval) as RuntimeSettings[F];
    case 'voice': {
      if (!isObject(value)) throw invalidField(field, 'voice must be an object');
      const out: VoiceSettings = {};
      const bounds = { end_of_turn_min_ms: [100, 2000], end_of_turn_max_ms: [300, 5000] } as const;
      for (const [key, v] of Object.entries(value)) {
        if (key !== 'recording' && !(key in bounds))
          throw invalidField(`voice.${key}`, `voice.${key} is not a voice setting`);
        if (v === null || v === undefined) continue;
        if (key === 'recording') {
          if (typeof v !== 'boolean') throw invalidField('voice.recording', 'voice.recording must be a boolean');
          out.recording = v;
          continue;
        }
        const [min, max] = bounds[key as keyof typeof bounds];
        if (typeof v !== 'number' || !Number.isInteger(v) || v < min || v > max)
          throw invalidField(`voice.${key}`, `voice.${key} must be an integer from ${min} to ${max}`);
        out[key as keyof typeof bounds] = v;
      }
      if (out.end_of_turn_min_ms !== undefined && out.end_of_turn_max_ms !== undefined) {
        if (out.end_of_turn_max_ms < out.end_of_turn_min_ms)
          throw invalidField(
            'voice.end_of_turn_max_ms',
            'voice.end_of_turn_max_ms must be at least voice.end_of_turn_min_ms',
          );
      }
      return (Object.keys(out).length ? out : undefined) as RuntimeSettings[F];
    }
    case 'privacy':
      return checkPrivacy(value) as RuntimeSettings[F];
    case 'analysis':
      return checkAnalysis(value) as RuntimeSettings[F];
  }
  throw invalidField(field, `${String(field)} is not a runtime setting`);
}

/** `privacy`: only `redact`, a list of known kinds without repeats, kept in REDACT_KINDS order (empty: off). */
function checkPrivacy(value: unknown): PrivacySettings | undefined {
  if (!isObject(value)) throw invalidField('privacy', 'privacy must be an object');
  for (const key of Object.keys(value))
    if (key !== 'redact') throw invalidField(`privacy.${key}`, `privacy.${key} is not a privacy setting`);
  const redact = value.redact;
  if (redact === null || redact === undefined) return undefined;
  const rule = `privacy.redact must be a list of distinct kinds from ${REDACT_KINDS.join(', ')}`;
  if (!Array.isArray(redact)) throw invalidField('privacy.redact', rule);
  for (const kind of redact)
    if (!(REDACT_KINDS as readonly unknown[]).includes(kind))
      throw invalidField('privacy.redact', `${rule}; ${JSON.stringify(kind)?.slice(0, 40)} is not one`);
  if (new Set(redact).size !== redact.length) throw invalidField('privacy.redact', `${rule}; one is repeated`);
  const kinds = REDACT_KINDS.filter((kind) => redact.includes(kind));
  return kinds.length > 0 ? { redact: kinds } : undefined;
}

/** The settings after a patch, every field checked; the same object's fields in a fixed order. */
export function applySettingsPatch(current: RuntimeSettings, patch: RuntimeSettingsPatch): RuntimeSettings {
  for (const key of Object.keys(patch))
    if (!(SETTINGS_FIELDS as readonly string[]).includes(key))
      throw invalidField(key, `${key} is not a runtime setting`);
  const next: Record<string, unknown> = {};
  for (const field of SETTINGS_FIELDS) {
    const value = patch[field] !== undefined ? checkSetting(field, patch[field]) : current[field];
    if (value !== undefined) next[field] = value;
  }
  return next as RuntimeSettings;
}

/** Key-order independent form of a setting's value, to compare two sides of a merge. */
export function settingKey(value: unknown): string {
  const canonical = (v: unknown): unknown =>
    isObject(v)
      ? Object.fromEntries(
          Object.keys(v)
            .sort()
            .map((k) => [k, canonical(v[k])]),
        )
      : v;
  return value === undefined ? 'undefined' : JSON.stringify(canonical(value));
}

export const sameSettings = (a: RuntimeSettings, b: RuntimeSettings) =>
  SETTINGS_FIELDS.every((f) => settingKey(a[f]) === settingKey(b[f]));

/**
 * Every endpoint name the settings refer to, model endpoints and embeddings endpoints apart (the
 * service checks each exists before recording).
 */
export function endpointsOf(settings: RuntimeSettings): { models: string[]; embeddings: string[] } {
  const named = (values: ReadonlyArray<{ endpoint?: string } | undefined>) => [
    ...new Set(values.flatMap((v) => (v?.endpoint ? [v.endpoint] : []))),
  ];
  return {
    models: named([settings.model, ...Object.values(settings.environment_models ?? {})]),
    embeddings: named([settings.retrieval, ...Object.values(settings.environment_retrieval ?? {})]),
  };
}

/** The retrieval a deployment of `environment` runs with: the environment's own, else the agent's, else lexical. */
export function retrievalFor(settings: RuntimeSettings, environment: Environment): RetrievalSettings {
  return settings.environment_retrieval?.[environment] ?? settings.retrieval ?? { mode: 'lexical' };
}
