/**
 * CORS for Studio (docs/studio.md): with PUBLIC_DOMAIN, Studio's page and the API families answer on
 * different hosts, so the browser asks before each call. Only Studio's origins are answered (no
 * wildcard, no credentials mode: the key travels in a header the page sets, never a cookie).
 */

/** The credential and request headers Studio's client sends. */
const ALLOWED_HEADERS = 'x-api-key, x-operator-token, authorization, content-type, idempotency-key, x-correlation-id';
const ALLOWED_METHODS = 'GET, POST, PUT, PATCH, DELETE';
/** What the page may read back: the correlation id it shows with an error, and when to retry. */
const EXPOSED_HEADERS = 'x-correlation-id, retry-after';
const MAX_AGE_S = '600';

export type CorsVerdict =
  /** not a cross-origin request, or one from an origin not listed: nothing to add */
  | { kind: 'none' }
  /** a preflight from a listed origin: answer 204 with these headers */
  | { kind: 'preflight'; headers: Record<string, string> }
  /** a preflight from an origin not listed: refused */
  | { kind: 'refused' }
  /** an actual request from a listed origin: these headers on its answer */
  | { kind: 'allow'; headers: Record<string, string> };

export function corsVerdict(
  method: string,
  origin: string | undefined,
  requestMethod: string | undefined,
  allowed: ReadonlySet<string>,
): CorsVerdict {
  const preflight = method === 'OPTIONS' && requestMethod !== undefined;
  if (origin === undefined) return { kind: 'none' };
  if (!allowed.has(origin)) return preflight ? { kind: 'refused' } : { kind: 'none' };
  const common = { 'access-control-allow-origin': origin, vary: 'Origin' };
  if (!preflight) return { kind: 'allow', headers: { ...common, 'access-control-expose-headers': EXPOSED_HEADERS } };
  return {
    kind: 'preflight',
    headers: {
      ...common,
      'access-control-allow-methods': ALLOWED_METHODS,
      'access-control-allow-headers': ALLOWED_HEADERS,
      'access-control-max-age': MAX_AGE_S,
    },
  };
}

/**
 * STUDIO_ORIGINS: comma-separated origins (`https://studio.example.com`). Unset: Studio's own host
 * under PUBLIC_DOMAIN (`studio.<domain>`, https and http), or none without it (Studio and the API
 * share the page's origin). Returns the normalised origins, or the entry that is not an origin.
 */
export function studioOrigins(raw: string | undefined, publicDomain: string | null): string[] | { invalid: string } {
  if (raw === undefined || raw.trim() === '')
    return publicDomain ? [`https://studio.${publicDomain}`, `http://studio.${publicDomain}`] : [];
  const origins: string[] = [];
  for (const entry of raw
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)) {
    let url: URL;
    try {
      url = new URL(entry);
    } catch {
      return { invalid: entry };
    }
    if (!/^https?:$/.test(url.protocol) || url.origin !== entry.replace(/\/$/, '')) return { invalid: entry };
    origins.push(url.origin);
  }
  return origins;
}
