import { isMappedIPv4 } from './client-address';
import { parseIPv4, parseIPv6 } from './ip-address';

interface Cidr {
  bytes: number[];
  prefix: number;
}

/** A test of addresses against a list of blocks (TRUSTED_PROXIES): true when any block holds it. */
export type AddressTest = (ip: string | undefined) => boolean;

/**
 * Parses `10.0.0.0/8, 2001:db8::/32, 192.0.2.7` (a bare address is a block of one); the first
 * entry that is not a block is returned as `invalid` so configuration can name it.
 */
export function parseCidrList(text: string | undefined): { blocks: Cidr[] } | { invalid: string } {
  const blocks: Cidr[] = [];
  for (const entry of (text ?? '').split(',')) {
    const trimmed = entry.trim();
    if (!trimmed) continue;
    const block = parseCidr(trimmed);
    if (!block) return { invalid: trimmed };
    blocks.push(block);
  }
  return { blocks };
}

function parseCidr(text: string): Cidr | null {
  const [address, prefixText, extra] = text.split('/');
  if (extra !== undefined) return null;
  const bytes = parseIPv4(address) ?? parseIPv6(address);
  if (!bytes) return null;
  const bits = bytes.length * 8;
  if (prefixText !== undefined && !/^\d{1,3}$/.test(prefixText)) return null;
  const prefix = prefixText === undefined ? bits : Number(prefixText);
  if (prefix > bits) return null;
  return { bytes, prefix };
}

/** The test for `blocks`; an IPv4-mapped IPv6 address is matched as its IPv4 (a dual-stack socket's form). */
export function addressTest(blocks: readonly Cidr[]): AddressTest {
  if (blocks.length === 0) return () => false;
  return (ip) => {
    if (!ip) return false;
    let bytes = parseIPv4(ip) ?? parseIPv6(ip);
    if (!bytes) return false;
    if (bytes.length === 16 && isMappedIPv4(bytes)) bytes = bytes.slice(12);
    return blocks.some((block) => block.bytes.length === bytes.length && within(bytes, block));
  };
}

function within(bytes: number[], { bytes: base, prefix }: Cidr): boolean {
  let bits = prefix;
  for (let i = 0; bits > 0; i++, bits -= 8) {
    const mask = bits >= 8 ? 0xff : (0xff << (8 - bits)) & 0xff;
    if ((bytes[i] & mask) !== (base[i] & mask)) return false;
  }
  return true;
}

/** The test for configuration already validated (TRUSTED_PROXIES entries). */
export function addressTestOf(entries: readonly string[]): AddressTest {
  const parsed = parseCidrList(entries.join(','));
  if ('invalid' in parsed) throw new Error(`not an address or CIDR block: ${parsed.invalid}`);
  return addressTest(parsed.blocks);
}
