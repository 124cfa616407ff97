import { DomainError } from '../errors/domain-error';

/**
 * What a field of a command must hold. Deciders check the fields they record with these, as the
 * DTOs do at the door (defence in depth): a `null` or a wrong type that got past a door is refused
 * here, never recorded where a projection would trip over it.
 */
export type FieldKind = 'string' | 'boolean' | 'integer' | 'string[]' | 'string|null' | readonly string[];

const fits = (value: unknown, kind: FieldKind): boolean => {
  if (Array.isArray(kind)) return typeof value === 'string' && kind.includes(value);
  switch (kind) {
    case 'string':
      return typeof value === 'string';
    case 'string|null':
      return value === null || typeof value === 'string';
    case 'boolean':
      return typeof value === 'boolean';
    case 'integer':
      return Number.isSafeInteger(value);
    case 'string[]':
      return Array.isArray(value) && value.every((v) => typeof v === 'string');
  }
  return false;
};

const describe = (kind: FieldKind): string =>
  Array.isArray(kind)
    ? `one of ${kind.join(', ')}`
    : (
        {
          string: 'a string',
          'string|null': 'a string or null',
          boolean: 'a boolean',
          integer: 'an integer',
          'string[]': 'an array of strings',
        } as Record<string, string>
      )[kind as string];

export function invalidField(field: string, message: string): DomainError {
  return new DomainError('VALIDATION_ERROR', message, 400, null, [{ field, message }]);
}

/**
 * Throws VALIDATION_ERROR (400) naming the first field of `kinds` that `values` does not fit.
 * `partial`: a change set, where an absent (undefined) field is simply not changed.
 */
export function checkFields(values: object, kinds: Record<string, FieldKind>, partial = false): void {
  for (const [field, kind] of Object.entries(kinds)) {
    const value = (values as Record<string, unknown>)[field];
    if (partial && value === undefined) continue;
    if (fits(value, kind)) continue;
    if (value === null || value === undefined)
      throw invalidField(field, `${field} must not be ${value === null ? 'null' : 'missing'}`);
    throw invalidField(field, `${field} must be ${describe(kind)}`);
  }
}
