import { routeDocs } from '../openapi/route-docs';
import { arr, bool, int, map, nullable, num, obj, oneOf, str } from '../openapi/schema-helpers';
import { REDACT_KINDS } from '../privacy/redact-kinds';
import { MODEL_PROVIDERS, RETRIEVAL_MODES, SETTINGS_FIELDS } from './runtime-settings';
import { ANALYSIS_FIELD_TYPES } from './analysis-settings';
import { RuntimeSettingsController } from './runtime-settings.controller';

const model = obj(
  { provider: oneOf(...MODEL_PROVIDERS) },
  { model: str, temperature: num, max_tokens: int, endpoint: str },
);
const retrieval = obj({ mode: oneOf(...RETRIEVAL_MODES) }, { endpoint: str, timeout_ms: int, min_similarity: num });
const analysisField = obj({ name: str, type: oneOf(...ANALYSIS_FIELD_TYPES), description: str }, { values: arr(str) });
const settings = obj({
  settings: obj({
    confidence_threshold: num,
    fallback_text: str,
    small_talk: bool,
    model: nullable(model),
    environment_models: map(model),
    retrieval,
    environment_retrieval: map(retrieval),
    voice: obj({ recording: bool }, { end_of_turn_min_ms: int, end_of_turn_max_ms: int }),
    privacy: obj({ redact: arr(oneOf(...REDACT_KINDS)) }),
    analysis: obj({ fields: arr(analysisField) }),
  }),
  customized: arr(oneOf(...SETTINGS_FIELDS)),
});

export const runtimeSettingsDocs = routeDocs(RuntimeSettingsController, 'agents', {
  get: {
    summary: "An agent's runtime settings on a branch (`main` included), defaults filled in",
    errors: [404],
    responses: { 200: { description: 'The settings, and which fields the agent set', schema: settings } },
  },
  put: {
    summary: 'Change runtime settings on a branch: a named field is set, `null` restores its default',
    example: {
      confidence_threshold: 0.3,
      fallback_text: 'Please call the front desk.',
      small_talk: true,
      voice: { recording: true },
    },
    errors: [404, 409, 422],
    responses: { 200: { description: 'The settings after the change', schema: settings } },
  },
});
