import { randomBytes, randomUUID } from 'node:crypto';

/**
 * UUIDv7 (RFC 9562): time-ordered, so ids created together sit together in B-tree indexes
 * (event ids, idempotency records) instead of scattering inserts across pages.
 */
export function uuidv7(nowMs: number = Date.now()): string {
  const bytes = randomBytes(16);
  bytes.writeUIntBE(nowMs, 0, 6);
  bytes[6] = (bytes[6] & 0x0f) | 0x70;
  bytes[8] = (bytes[8] & 0x3f) | 0x80;
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** Ids come from one generator so tests can make them predictable. */
export abstract class IdGenerator {
  abstract uuid(): string;
  /** A short url-safe id of `bytes` random bytes (base32, lower case). */
  abstract short(bytes?: number): string;
}

const ALPHABET = 'abcdefghijklmnopqrstuvwxyz234567';

export function base32(bytes: Buffer): string {
  let bits = 0;
  let value = 0;
  let out = '';
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += ALPHABET[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += ALPHABET[(value << (5 - bits)) & 31];
  return out;
}

export class RandomIdGenerator extends IdGenerator {
  uuid(): string {
    return randomUUID();
  }
  short(bytes = 10): string {
    return base32(randomBytes(bytes));
  }
}
