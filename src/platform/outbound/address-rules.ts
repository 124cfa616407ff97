import { parseIPv4, parseIPv6 } from '../net/ip-address';

/**
 * Which addresses the platform may send to on a customer's behalf (webhooks, agent tools,
 * carriers): public unicast only. Everything that reaches this machine, its network or its cloud
 * (loopback, private, link-local, unique-local, CGNAT, metadata services) is refused, in every
 * IPv6 form that carries an IPv4 address (mapped, compatible, NAT64, 6to4).
 */
export type AddressKind =
  | 'public'
  | 'loopback'
  | 'private'
  | 'link_local'
  | 'unique_local'
  | 'cgnat'
  | 'multicast'
  | 'unspecified'
  | 'broadcast'
  | 'reserved'
  | 'metadata';

/** Cloud metadata services: AWS/GCP/Azure, AWS ECS, AWS IPv6, Alibaba, Oracle. */
const METADATA = new Set([
  '169.254.169.254',
  '169.254.170.2',
  '100.100.100.200',
  '192.0.0.192',
  'fd00:ec2:0:0:0:0:0:254',
]);

/** The kind of an IP address in any written form, or null when `ip` is not an IP address. */
export function addressKind(ip: string): AddressKind | null {
  const v4 = parseIPv4(ip);
  if (v4) return ipv4Kind(v4);
  const v6 = parseIPv6(ip);
  if (v6) return ipv6Kind(v6);
  return null;
}

/** Whether the platform may connect to `ip`: null when it may, else why not. */
export function refusedAddress(ip: string, options: { allowLoopback: boolean }): AddressKind | 'not_an_address' | null {
  const kind = addressKind(ip);
  if (kind === null) return 'not_an_address';
  if (kind === 'public') return null;
  if (kind === 'loopback' && options.allowLoopback) return null;
  return kind;
}

function ipv4Kind(b: number[]): AddressKind {
  const [a, c1, c2] = b;
  if (METADATA.has(b.join('.'))) return 'metadata';
  if (a === 0) return 'unspecified'; // 0.0.0.0/8, "this network"
  if (a === 127) return 'loopback';
  if (a === 10) return 'private';
  if (a === 172 && (c1 & 0xf0) === 16) return 'private';
  if (a === 192 && c1 === 168) return 'private';
  if (a === 100 && (c1 & 0xc0) === 64) return 'cgnat';
  if (a === 169 && c1 === 254) return 'link_local';
  if (a >= 224 && a <= 239) return 'multicast';
  if (b.every((x) => x === 255)) return 'broadcast';
  if (a >= 240) return 'reserved';
  // IETF protocol assignments, documentation ranges, benchmarking
  if (a === 192 && c1 === 0 && (c2 === 0 || c2 === 2)) return 'reserved';
  if (a === 198 && (c1 & 0xfe) === 18) return 'reserved';
  if (a === 198 && c1 === 51 && c2 === 100) return 'reserved';
  if (a === 203 && c1 === 0 && c2 === 113) return 'reserved';
  return 'public';
}

function ipv6Kind(b: number[]): AddressKind {
  const groups = Array.from({ length: 8 }, (_, i) => (b[2 * i] << 8) | b[2 * i + 1]);
  if (METADATA.has(groups.map((g) => g.toString(16)).join(':'))) return 'metadata';
  const zeros = (n: number) => b.slice(0, n).every((x) => x === 0);
  if (zeros(16)) return 'unspecified';
  if (zeros(15) && b[15] === 1) return 'loopback';
  // ::ffff:a.b.c.d (mapped) and ::a.b.c.d (compatible) reach the IPv4 address they carry
  if (zeros(10) && groups[5] === 0xffff) return ipv4Kind(b.slice(12));
  if (zeros(12)) return ipv4Kind(b.slice(12));
  // NAT64 64:ff9b::/96 carries an IPv4 address; 64:ff9b:1::/48 is for local use
  if (groups[0] === 0x64 && groups[1] === 0xff9b) {
    return groups.slice(2, 6).every((g) => g === 0) ? ipv4Kind(b.slice(12)) : 'reserved';
  }
  // 6to4 2002::/16 carries an IPv4 address in its next 32 bits
  if (groups[0] === 0x2002) return ipv4Kind(b.slice(2, 6));
  if ((b[0] & 0xfe) === 0xfc) return 'unique_local'; // fc00::/7
  if (b[0] === 0xfe && (b[1] & 0xc0) === 0x80) return 'link_local'; // fe80::/10
  if (b[0] === 0xfe && (b[1] & 0xc0) === 0xc0) return 'private'; // fec0::/10, site-local (deprecated)
  if (b[0] === 0xff) return 'multicast';
  // Teredo 2001::/32 (hides an IPv4 address), documentation 2001:db8::/32
  if (groups[0] === 0x2001 && (groups[1] === 0 || groups[1] === 0xdb8)) return 'reserved';
  // Only global unicast 2000::/3 is public; the rest (discard 100::/64, unassigned) is not.
  if ((b[0] & 0xe0) !== 0x20) return 'reserved';
  return 'public';
}
