import { invalidField } from '../platform/validation/field-checks';

/*
 * The runtime setting `analysis` (contract §24): the custom fields post-call analysis fills for
 * every ended conversation of the agent. Its own file, so runtime-settings.ts only names it.
 */

export const ANALYSIS_FIELD_TYPES = ['string', 'number', 'boolean', 'enum'] as const;
export type AnalysisFieldType = (typeof ANALYSIS_FIELD_TYPES)[number];

/** One custom field: what the analyser fills (the model; the embedded analyser leaves it null). */
export interface AnalysisField {
  name: string;
  type: AnalysisFieldType;
  /** what the field means, as the model is told */
  description: string;
  /** enum only (required there): the values it may take */
  values?: string[];
}

export interface AnalysisSettings {
  fields?: AnalysisField[];
}

/** Bounds on what an agent may ask for: each field is a property of the model's JSON schema and of every analysis. */
export const ANALYSIS_LIMITS = {
  fields: 20,
  description: 500,
  values: 50,
  value: 100,
} as const;
/** A name that is a JSON property in every language a receiver uses, never `__proto__`. */
export const ANALYSIS_FIELD_NAME = /^[A-Za-z][A-Za-z0-9_]{0,63}$/;
export const ANALYSIS_FIELD_NAME_RULE = 'a letter, then letters, digits and _, 1 to 64 characters';

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/** The setting checked whole (the DTO checks each field's shape at the door; this also checks the fields together). */
export function checkAnalysis(value: unknown): AnalysisSettings | undefined {
  if (!isObject(value)) throw invalidField('analysis', 'analysis must be an object');
  for (const key of Object.keys(value))
    if (key !== 'fields') throw invalidField(`analysis.${key}`, `analysis.${key} is not an analysis setting`);
  if (value.fields === null || value.fields === undefined) return undefined;
  if (!Array.isArray(value.fields)) throw invalidField('analysis.fields', 'analysis.fields must be an array');
  if (value.fields.length > ANALYSIS_LIMITS.fields)
    throw invalidField('analysis.fields', `analysis.fields may hold at most ${ANALYSIS_LIMITS.fields} fields`);
  const seen = new Set<string>();
  const fields = value.fields.map((raw: unknown, i) => {
    const field = checkField(`analysis.fields.${i}`, raw);
    if (seen.has(field.name))
      throw invalidField(`analysis.fields.${i}.name`, `analysis.fields names must be unique (${field.name} is twice)`);
    seen.add(field.name);
    return field;
  });
  return fields.length ? { fields } : undefined;
}

function checkField(at: string, raw: unknown): AnalysisField {
  if (!isObject(raw)) throw invalidField(at, `${at} must be an object`);
  for (const key of Object.keys(raw))
    if (!['name', 'type', 'description', 'values'].includes(key))
      throw invalidField(`${at}.${key}`, `${at}.${key} is not a field setting`);
  const { name, type, description, values } = raw;
  if (typeof name !== 'string' || !ANALYSIS_FIELD_NAME.test(name))
    throw invalidField(`${at}.name`, `${at}.name must be ${ANALYSIS_FIELD_NAME_RULE}`);
  if (typeof type !== 'string' || !(ANALYSIS_FIELD_TYPES as readonly string[]).includes(type))
    throw invalidField(`${at}.type`, `${at}.type must be one of ${ANALYSIS_FIELD_TYPES.join(', ')}`);
  if (typeof description !== 'string' || description.trim() === '' || description.length > ANALYSIS_LIMITS.description)
    throw invalidField(
      `${at}.description`,
      `${at}.description must be a string of 1 to ${ANALYSIS_LIMITS.description} characters`,
    );
  const field: AnalysisField = { name, type: type as AnalysisFieldType, description };
  if (type !== 'enum') {
    if (values !== undefined && values !== null)
      throw invalidField(`${at}.values`, `${at}.values is for enum fields only`);
    return field;
  }
  const rule = `${at}.values must be 1 to ${ANALYSIS_LIMITS.values} distinct strings of 1 to ${ANALYSIS_LIMITS.value} characters`;
  if (
    !Array.isArray(values) ||
    values.length === 0 ||
    values.length > ANALYSIS_LIMITS.values ||
    values.some((v) => typeof v !== 'string' || v.trim() === '' || v.length > ANALYSIS_LIMITS.value) ||
    new Set(values).size !== values.length
  )
    throw invalidField(`${at}.values`, rule);
  return { ...field, values: values as string[] };
}
