import type { AddressTest } from './cidr';

/**
 * The client behind a chain of trusted proxies: starting from the socket's peer, each hop is
 * believed only while the address that reported it is a trusted proxy (TRUSTED_PROXIES), walking
 * X-Forwarded-For from its right end, as Fastify's `trustProxy` (proxy-addr) does for HTTP. This
 * is the same rule for the sockets Fastify does not see (WebSocket upgrades).
 */
export function forwardedClient(
  peer: string | undefined,
  forwardedFor: string | string[] | undefined,
  trusted: AddressTest,
): string | undefined {
  if (!trusted(peer) || forwardedFor === undefined) return peer;
  const hops = (Array.isArray(forwardedFor) ? forwardedFor.join(',') : forwardedFor)
    .split(',')
    .map((hop) => hop.trim())
    .filter((hop) => hop.length > 0);
  let client = peer;
  for (let i = hops.length - 1; i >= 0; i--) {
    client = hops[i];
    if (!trusted(client)) break;
  }
  return client;
}
