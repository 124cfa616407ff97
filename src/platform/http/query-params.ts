import { badRequest } from '../errors/domain-error';

/**
 * The one reading of a hand-parsed query string parameter: absent is undefined, a repeated
 * parameter (`?a=1&a=2`, which Fastify hands over as an array) is a 400 naming it, never silently
 * its first or last value, and never an array where a string is expected.
 */
export function queryParam(
  query: Record<string, unknown> | undefined,
  name: string,
  code = 'VALIDATION_ERROR',
): string | undefined {
  const value = query?.[name];
  if (value === undefined) return undefined;
  if (typeof value !== 'string') {
    const message = Array.isArray(value)
      ? `query parameter ${name} is given more than once`
      : `query parameter ${name} must be a single value`;
    throw badRequest(code, message, [{ field: name, message }]);
  }
  return value;
}
