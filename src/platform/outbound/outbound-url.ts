import { refusedAddress } from './address-rules';

/**
 * What an outbound URL may look like, judged without DNS (at creation, and again before each
 * send): https, or plain http to loopback when loopback is allowed (WEBHOOK_ALLOW_HTTP=1, local
 * receivers); no credentials in it; no whitespace or control characters (the WHATWG parser would
 * silently drop them, storing one URL and showing another); no literal internal address in any
 * form the parser normalises (decimal, octal, hex, short IPv4; mapped IPv6); no name that is
 * internal by construction. A public name can still resolve to an internal address: the sender
 * checks the resolved addresses too (outbound-http.ts).
 */
export interface OutboundUrlOptions {
  /** Loopback addresses and names, over http or https (WEBHOOK_ALLOW_HTTP=1). */
  allowLoopback: boolean;
}

const MAX_URL_LENGTH = 2048;

/** Names that only ever mean a host inside the network: special-use and cloud-internal domains. */
const INTERNAL_SUFFIXES = ['.internal', '.local', '.localdomain', '.home.arpa', '.arpa', '.intranet', '.lan', '.corp'];
const INTERNAL_NAMES = new Set(['metadata.goog', 'metadata', 'instance-data']);

/** `internal`: the URL names a host the rules refuse (as opposed to being malformed). */
export type UrlCheck = { url: URL; problem: null } | { url: null; problem: string; internal: boolean };

export function checkOutboundUrl(raw: string, options: OutboundUrlOptions): UrlCheck {
  const fail = (problem: string, internal = false): UrlCheck => ({ url: null, problem, internal });
  if (raw.length > MAX_URL_LENGTH) return fail(`url must be at most ${MAX_URL_LENGTH} characters`);
  if (/[\s\p{Cc}\u2028\u2029]/u.test(raw)) return fail('url must not contain whitespace or control characters');
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return fail('url must be an absolute URL such as https://example.com/webhooks');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return fail('url must use https');
  if (url.username || url.password) return fail('url must not carry credentials; send them in headers');
  const host = hostKind(url.hostname);
  if (url.protocol === 'http:') {
    if (!options.allowLoopback) return fail('url must use https', host.kind === 'internal' || host.kind === 'loopback');
    if (host.kind !== 'loopback')
      return fail('url must use https (plain http is allowed only to a loopback host)', host.kind === 'internal');
  }
  if (host.kind === 'loopback' && !options.allowLoopback)
    return fail('url must not point at this machine (loopback)', true);
  if (host.kind === 'internal') return fail(`url must not point at an internal address (${host.reason})`, true);
  return { url, problem: null };
}

/** Returns the problem, or null when the URL is acceptable. */
export function outboundUrlProblem(raw: string, options: OutboundUrlOptions): string | null {
  return checkOutboundUrl(raw, options).problem;
}

/** A URL's hostname (as the WHATWG parser left it) judged on its own: an IP literal or a name. */
function hostKind(hostname: string): { kind: 'public' | 'loopback' | 'name' } | { kind: 'internal'; reason: string } {
  const name = hostname.toLowerCase().replace(/\.+$/, '');
  const refused = refusedAddress(name, { allowLoopback: false });
  if (refused === null) return { kind: 'public' };
  if (refused === 'loopback') return { kind: 'loopback' };
  if (refused !== 'not_an_address') return { kind: 'internal', reason: refused };
  if (name === 'localhost' || name.endsWith('.localhost')) return { kind: 'loopback' };
  if (INTERNAL_NAMES.has(name) || INTERNAL_SUFFIXES.some((suffix) => name.endsWith(suffix)))
    return { kind: 'internal', reason: 'internal name' };
  // A single label is completed by the resolver's search domains: a host of the local network.
  if (!name.includes('.')) return { kind: 'internal', reason: 'single-label name' };
  return { kind: 'name' };
}
