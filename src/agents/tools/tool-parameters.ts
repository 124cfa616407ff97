/**
 * A tool's `parameters` (contract §20): a JSON Schema object describing the arguments, in the
 * subset a model's tool call and the customer's endpoint both understand. Judged as a schema when
 * saved (so a model is never handed one it rejects), and used to turn the action's string arguments
 * into the JSON types the endpoint expects.
 */

const TYPES = new Set(['string', 'number', 'integer', 'boolean', 'object', 'array', 'null']);
const MAX_SCHEMA_BYTES = 16 * 1024;
const MAX_DEPTH = 8;
const NAME = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/;

const isRecord = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/** The first problem of `schema` as a tool's parameters, or null. */
export function parametersProblem(schema: unknown): string | null {
  if (!isRecord(schema)) return 'parameters must be a JSON Schema object';
  if (schema.type !== 'object') return 'parameters.type must be "object"';
  let size: number;
  try {
    size = Buffer.byteLength(JSON.stringify(schema));
  } catch {
    return 'parameters must be JSON';
  }
  if (size > MAX_SCHEMA_BYTES) return `parameters must be at most ${MAX_SCHEMA_BYTES} bytes of JSON`;
  const problem = schemaProblem(schema, 'parameters', 0);
  if (problem) return problem;
  const properties = (schema.properties ?? {}) as Record<string, unknown>;
  for (const name of Object.keys(properties)) {
    if (!NAME.test(name))
      return `parameters.properties.${name}: an argument name is letters, digits and _ (at most 64)`;
    // `call_function name=<tool> fallback="..."`: these two select the tool and say what a failure answers
    if (name === 'name' || name === 'fallback')
      return `parameters.properties.${name}: "${name}" is reserved by call_function`;
  }
  return null;
}

function schemaProblem(schema: unknown, at: string, depth: number): string | null {
  if (depth > MAX_DEPTH) return `${at}: nested deeper than ${MAX_DEPTH} levels`;
  if (!isRecord(schema)) return `${at} must be a schema object`;
  const { type } = schema;
  const types = Array.isArray(type) ? type : type === undefined ? [] : [type];
  for (const t of types)
    if (typeof t !== 'string' || !TYPES.has(t)) return `${at}.type ${JSON.stringify(t)} is not a JSON Schema type`;
  if (schema.description !== undefined && typeof schema.description !== 'string')
    return `${at}.description must be a string`;
  if (schema.enum !== undefined && (!Array.isArray(schema.enum) || schema.enum.length === 0))
    return `${at}.enum must be a non-empty array`;
  if (schema.properties !== undefined) {
    if (!isRecord(schema.properties)) return `${at}.properties must be an object`;
    for (const [name, inner] of Object.entries(schema.properties)) {
      const problem = schemaProblem(inner, `${at}.properties.${name}`, depth + 1);
      if (problem) return problem;
    }
  }
  if (schema.required !== undefined) {
    if (!Array.isArray(schema.required) || !schema.required.every((r) => typeof r === 'string'))
      return `${at}.required must be an array of property names`;
    const properties = isRecord(schema.properties) ? schema.properties : {};
    const unknown = schema.required.find((r) => !Object.prototype.hasOwnProperty.call(properties, r as string));
    if (unknown !== undefined) return `${at}.required names ${JSON.stringify(unknown)}, which is not in properties`;
  }
  if (schema.items !== undefined) return schemaProblem(schema.items, `${at}.items`, depth + 1);
  return null;
}

export type Arguments = { ok: true; value: Record<string, unknown> } | { ok: false; error: string };

/**
 * The action's string arguments (`key=value`) as the JSON the endpoint gets: each declared
 * property converted to its type (`number`, `integer`, `boolean`, `object`/`array` from JSON),
 * undeclared ones left out, a missing required one refused. A model's arguments arrive typed
 * already and pass unchanged where they fit.
 */
export function toolArguments(schema: Record<string, unknown>, given: Record<string, unknown>): Arguments {
  const properties = isRecord(schema.properties) ? schema.properties : {};
  const required = Array.isArray(schema.required) ? (schema.required as string[]) : [];
  const value: Record<string, unknown> = {};
  for (const [name, declared] of Object.entries(properties)) {
    if (!Object.prototype.hasOwnProperty.call(given, name)) continue;
    const converted = convert(given[name], isRecord(declared) ? declared.type : undefined);
    if (converted === INVALID)
      return {
        ok: false,
        error: `argument "${name}" is not a valid ${String((declared as Record<string, unknown>).type)}`,
      };
    value[name] = converted;
  }
  const missing = required.find((name) => value[name] === undefined || value[name] === '');
  if (missing !== undefined) return { ok: false, error: `missing required argument "${missing}"` };
  return { ok: true, value };
}

const INVALID = Symbol('invalid');

function convert(raw: unknown, type: unknown): unknown {
  const types = Array.isArray(type) ? type : [type];
  if (typeof raw !== 'string') return raw;
  if (types.includes('string') || type === undefined) return raw;
  for (const t of types) {
    if ((t === 'number' || t === 'integer') && raw.trim() !== '') {
      const n = Number(raw);
      if (Number.isFinite(n) && (t === 'number' || Number.isInteger(n))) return n;
    }
    if (t === 'boolean' && (raw === 'true' || raw === 'false')) return raw === 'true';
    if (t === 'null' && raw === '') return null;
    if (t === 'object' || t === 'array') {
      try {
        const parsed: unknown = JSON.parse(raw);
        if (t === 'array' ? Array.isArray(parsed) : isRecord(parsed)) return parsed;
      } catch {
        // not JSON: invalid below
      }
    }
  }
  return INVALID;
}
