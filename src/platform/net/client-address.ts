import { parseIPv4, parseIPv6 } from './ip-address';

/**
 * The key every per-address rule counts a client by (failed logins, connections, bytes): IPv4 as
 * is, IPv4-mapped IPv6 as its IPv4, other IPv6 by its /64 (the block one client is usually given,
 * so rotating through it buys nothing). Anything else (a socket with no address) is 'unknown'.
 */
export function clientAddress(raw: string | undefined): string {
  if (!raw) return 'unknown';
  if (parseIPv4(raw)) return raw;
  const v6 = parseIPv6(raw);
  if (!v6) return raw;
  if (isMappedIPv4(v6)) return v6.slice(12).join('.');
  const groups: string[] = [];
  for (let i = 0; i < 8; i += 2) groups.push(((v6[i] << 8) | v6[i + 1]).toString(16));
  return `${groups.join(':')}::/64`;
}

/** ::ffff:a.b.c.d, however it was written. */
export function isMappedIPv4(v6: number[]): boolean {
  for (let i = 0; i < 10; i++) if (v6[i] !== 0) return false;
  return v6[10] === 0xff && v6[11] === 0xff;
}
