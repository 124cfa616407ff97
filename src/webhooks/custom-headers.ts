/**
 * An endpoint's own headers, sent with every delivery (e.g. a receiver's auth token). Names are
 * HTTP tokens (RFC 7230); values printable ASCII, space and tab only (anything else the HTTP client
 * refuses to write, so the endpoint could never be delivered to). Hop-by-hop headers and the ones
 * the platform sets itself (signature, framing, content type) cannot be overridden. Values are
 * write-only: answers show them masked (maskHeaders). Returns the first problem, or null.
 */
const MAX_CUSTOM_HEADERS = 20;
const TOKEN = /^[A-Za-z0-9!#$%&'*+.^_`|~-]{1,100}$/;
const RESERVED = new Set([
  'host',
  'content-type',
  'content-length',
  'transfer-encoding',
  'connection',
  'keep-alive',
  'upgrade',
  'te',
  'trailer',
  'expect',
  'user-agent',
  'proxy-connection',
  'proxy-authorization',
  'proxy-authenticate',
  'http2-settings',
]);
/** Prefixes of the platform's own signature headers (webhooks; agent tools, contract §20). */
const RESERVED_PREFIXES = ['x-webhook-', 'x-parley-'];
const PRINTABLE = /^[\t\x20-\x7e]*$/;
/** What answers show instead of a header value. */
const MASKED_HEADER_VALUE = '***';

export function customHeadersProblem(headers: unknown): { field: string; message: string } | null {
  if (headers === null || typeof headers !== 'object' || Array.isArray(headers))
    return { field: 'headers', message: 'headers must be an object of header names to string values' };
  const entries = Object.entries(headers as Record<string, unknown>);
  if (entries.length > MAX_CUSTOM_HEADERS)
    return { field: 'headers', message: `headers may hold at most ${MAX_CUSTOM_HEADERS} entries` };
  const seen = new Set<string>();
  for (const [name, value] of entries) {
    const field = `headers.${name}`;
    if (!TOKEN.test(name)) return { field, message: `${field} is not a valid header name` };
    const lower = name.toLowerCase();
    if (RESERVED.has(lower) || RESERVED_PREFIXES.some((prefix) => lower.startsWith(prefix)))
      return { field, message: `${field} is set by the platform and cannot be overridden` };
    if (seen.has(lower)) return { field, message: `${field} is given twice (header names ignore case)` };
    seen.add(lower);
    if (typeof value !== 'string') return { field, message: `${field} must be a string` };
    if (value.length > 1024) return { field, message: `${field} must be at most 1024 characters` };
    if (/[\0\r\n]/.test(value)) return { field, message: `${field} must not contain line breaks or NUL` };
    if (!PRINTABLE.test(value)) return { field, message: `${field} must hold printable ASCII characters only` };
  }
  return null;
}

/** Header names with their values masked: values are write-only (docs/outbound-http.md). */
export function maskHeaders(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.keys(headers).map((name) => [name, MASKED_HEADER_VALUE]));
}
