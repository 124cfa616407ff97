/**
 * Host routing of contract §1. Without PUBLIC_DOMAIN every API answers on every host. With it, the
 * build APIs answer only on `api.<region>.<domain>` and the platform APIs only on
 * `api.<region-with-suffix>.platform.<domain>`, for this process's region; the wrong family or
 * region is 404, a host without a region prefix is 400. Operator, health and the web chat's routes
 * (its HTTP calls and `/ws`, reached from customers' pages) are in neither family and answer on any
 * host. The live-agent desk's socket is a platform route: it is opened with an account's API key
 * and serves the handoffs of running conversations, like the platform's handoff API. The rule is
 * applied to HTTP requests (an onRequest hook) and to WebSocket upgrades (ParleyWsAdapter) alike.
 */
export const PLATFORM_REGION: Record<string, string> = { us: 'us-1', uk: 'uk-1', eu: 'euw-1', studio: 'us-1' };

const BUILD_PREFIXES = [
  '/v1/accounts/',
  '/v1/agents/',
  '/v1/alert-rules',
  '/v1/alerts',
  '/v1/webhook-endpoints',
  '/v1/api-keys/',
];
const VERSIONED = /^\/v[123]\//;
/** Platform routes outside the versioned paths. */
const PLATFORM_PATHS = new Set(['/desk/ws']);

export type ApiFamily = 'build' | 'platform' | 'any';

export function familyOf(path: string): ApiFamily {
  if (BUILD_PREFIXES.some((prefix) => path.startsWith(prefix))) return 'build';
  return VERSIONED.test(path) || PLATFORM_PATHS.has(path) ? 'platform' : 'any';
}

export type HostVerdict = { ok: true } | { ok: false; status: 400 | 404; code: string; message: string };

export function checkHost(rawHost: string | undefined, path: string, domain: string, region: string): HostVerdict {
  const family = familyOf(path);
  if (family === 'any') return { ok: true };
  const host = (rawHost ?? '').toLowerCase().replace(/:\d+$/, '');
  const platformHost = `api.${PLATFORM_REGION[region]}.platform.${domain}`;
  const buildHost = `api.${region}.${domain}`;
  if (host === (family === 'build' ? buildHost : platformHost)) return { ok: true };
  const suffix = host.endsWith(`.platform.${domain}`)
    ? `.platform.${domain}`
    : host.endsWith(`.${domain}`)
      ? `.${domain}`
      : null;
  const prefix = suffix ? host.slice(0, -suffix.length) : '';
  if (!suffix || !/^api\.[a-z0-9-]+$/.test(prefix)) {
    return {
      ok: false,
      status: 400,
      code: 'HOST_WITHOUT_REGION',
      message: `use ${family === 'build' ? buildHost : platformHost}: the host must name a region`,
    };
  }
  return {
    ok: false,
    status: 404,
    code: 'WRONG_HOST',
    message: `not found on this host; ${family} APIs of this region answer on ${family === 'build' ? buildHost : platformHost}`,
  };
}
