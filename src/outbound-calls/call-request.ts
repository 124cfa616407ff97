/**
 * The rules of a call request (contract §10) as plain functions: the DTO applies them at the edge,
 * the unit tests pin them down.
 */

/** E.164: a plus, a country code that does not start with 0, at most 15 digits in all. */
export const E164 = /^\+[1-9]\d{6,14}$/;

export const isE164 = (value: unknown): value is string => typeof value === 'string' && E164.test(value);

/** ISO 3166-1 alpha-2, e.g. `US`, `GB`. */
export const COUNTRY_CODE = /^[A-Za-z]{2}$/;

/**
 * Metadata travels as SIP `X-` headers and lands in the conversation's state, so a key must be a
 * header token and a value must hold no line break (which would inject headers). The sizes keep
 * the INVITE a plain UDP datagram.
 */
export const METADATA_LIMITS = { entries: 20, keyLength: 64, valueLength: 512, totalBytes: 2048 } as const;
const METADATA_KEY = /^[A-Za-z][A-Za-z0-9_-]*$/;
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f]/;

/** The built-in state keys of contract §6: the platform sets them, metadata may not. */
const BUILT_IN_STATE_KEYS = [
  'conversation_id',
  'channel',
  'environment',
  'caller_number',
  'agent_number',
  'language',
] as const;

/** Null when `value` is acceptable metadata, else what is wrong with it (naming the field). */
export function metadataProblem(value: unknown): string | null {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return 'metadata must be an object of string values';
  const entries = Object.entries(value as Record<string, unknown>);
  if (entries.length > METADATA_LIMITS.entries) return `metadata may hold at most ${METADATA_LIMITS.entries} entries`;
  let bytes = 0;
  for (const [key, item] of entries) {
    if (!METADATA_KEY.test(key) || key.length > METADATA_LIMITS.keyLength) {
      return `metadata key ${JSON.stringify(key.slice(0, 80))} must start with a letter and hold only letters, digits, - and _ (at most ${METADATA_LIMITS.keyLength})`;
    }
    if ((BUILT_IN_STATE_KEYS as readonly string[]).includes(key.toLowerCase()))
      return `metadata.${key} is a built-in state key the platform sets`;
    if (typeof item !== 'string') return `metadata.${key} must be a string`;
    if (item.length > METADATA_LIMITS.valueLength)
      return `metadata.${key} must be at most ${METADATA_LIMITS.valueLength} characters`;
    if (CONTROL.test(item)) return `metadata.${key} must not contain control characters or line breaks`;
    bytes += Buffer.byteLength(key) + Buffer.byteLength(item);
  }
  if (bytes > METADATA_LIMITS.totalBytes)
    return `metadata must be at most ${METADATA_LIMITS.totalBytes} bytes of keys and values`;
  const lower = new Set(entries.map(([key]) => key.toLowerCase()));
  // SIP header names are case-insensitive: two keys differing only in case would be one header
  if (lower.size !== entries.length) return 'metadata keys must differ in more than letter case';
  return null;
}
