import type { JsonSchema } from './json-schema';

/**
 * Short forms for the answer schemas of the route tables. Objects stay open
 * (`additionalProperties` allowed): an answer may gain a field without breaking a client.
 */
export const str: JsonSchema = { type: 'string' };
export const int: JsonSchema = { type: 'integer' };
export const num: JsonSchema = { type: 'number' };
export const bool: JsonSchema = { type: 'boolean' };
export const any: JsonSchema = {};
export const time: JsonSchema = { type: 'string', format: 'date-time' };
export const map = (values: JsonSchema = any): JsonSchema => ({ type: 'object', additionalProperties: values });
export const arr = (items: JsonSchema): JsonSchema => ({ type: 'array', items });
export const oneOf = (...values: unknown[]): JsonSchema => ({ enum: values });
export const nullable = (schema: JsonSchema): JsonSchema =>
  typeof schema.type === 'string' ? { ...schema, type: [schema.type, 'null'] } : { anyOf: [schema, { type: 'null' }] };

/** An object whose `required` fields are always there, and `optional` ones sometimes. */
export function obj(required: Record<string, JsonSchema>, optional: Record<string, JsonSchema> = {}): JsonSchema {
  const schema: JsonSchema = { type: 'object', properties: { ...required, ...optional } };
  if (Object.keys(required).length > 0) schema.required = Object.keys(required);
  return schema;
}
