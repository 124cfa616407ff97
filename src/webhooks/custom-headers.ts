/**
 * An endpoint's own headers, sent with every delivery (e.g. a receiver's auth token). Names are
 * HTTP tokens; the headers the platform sets itself (signature, framing, content type) cannot be
 * overridden. Returns the first problem as `{field, message}`, or null.
 */
export const MAX_CUSTOM_HEADERS = 20;
const TOKEN = /^[A-Za-z0-9!#$%&'*+.^_`|~-]{1,100}$/;
const RESERVED = new Set(['host', 'content-type', 'content-length', 'transfer-encoding', 'connection', 'keep-alive', 'upgrade', 'te', 'trailer', 'expect', 'user-agent']);

export function customHeadersProblem(headers: unknown): { field: string; message: string } | null {
  if (headers === null || typeof headers !== 'object' || Array.isArray(headers)) return { field: 'headers', message: 'headers must be an object of header names to string values' };
  const entries = Object.entries(headers as Record<string, unknown>);
  if (entries.length > MAX_CUSTOM_HEADERS) return { field: 'headers', message: `headers may hold at most ${MAX_CUSTOM_HEADERS} entries` };
  const seen = new Set<string>();
  for (const [name, value] of entries) {
    const field = `headers.${name}`;
    if (!TOKEN.test(name)) return { field, message: `${field} is not a valid header name` };
    const lower = name.toLowerCase();
    if (RESERVED.has(lower) || lower.startsWith('x-webhook-')) return { field, message: `${field} is set by the platform and cannot be overridden` };
    if (seen.has(lower)) return { field, message: `${field} is given twice (header names ignore case)` };
    seen.add(lower);
    if (typeof value !== 'string') return { field, message: `${field} must be a string` };
    if (value.length > 1024) return { field, message: `${field} must be at most 1024 characters` };
    if (/[\0\r\n]/.test(value)) return { field, message: `${field} must not contain line breaks` };
  }
  return null;
}
