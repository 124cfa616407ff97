/**
 * `$state.key` in an action value reads conversation state (contract §6). `$state.a.b` walks nested
 * objects; an unknown key reads as the empty string; `$$` is a literal `$`; any other `$` stays as is.
 */

const PLACEHOLDER = /\$\$|\$state\.([A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z0-9_]+)*)/g;

const hasOwn = (o: object, key: string) => Object.prototype.hasOwnProperty.call(o, key);

/**
 * The value at a dotted `path` in `state`: a top-level key spelled with dots wins, then nested
 * objects are walked. Only own properties are read (never `constructor`, `__proto__`, ...).
 */
export function readPath(state: Record<string, unknown>, path: string): unknown {
  if (hasOwn(state, path)) return state[path];
  let at: unknown = state;
  for (const part of path.split('.')) {
    if (at === null || typeof at !== 'object' || !hasOwn(at, part)) return undefined;
    at = (at as Record<string, unknown>)[part];
  }
  return at;
}

/** How a state value reads inside text: strings as is, null/undefined as "", objects as JSON. */
function stringify(value: unknown): string {
  if (value === undefined || value === null) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return String(value);
  try {
    return JSON.stringify(value) ?? '';
  } catch {
    return '';
  }
}

export function renderValue(value: string, state: Record<string, unknown>): string {
  if (!value.includes('$')) return value;
  return value.replace(PLACEHOLDER, (match: string, path: string | undefined) =>
    path === undefined ? '$' : stringify(readPath(state, path)),
  );
}
