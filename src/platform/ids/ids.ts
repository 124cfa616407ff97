import { randomBytes, randomUUID } from 'node:crypto';

/**
 * UUIDv7 (RFC 9562): time-ordered, so ids created together sit together in B-tree indexes
 * (event ids, idempotency records) instead of scattering inserts across pages.
 */
export function uuidv7(nowMs: number = Date.now()): string {
  // randomUUID draws from a pooled buffer of random bytes (randomBytes(16) per id does not): keep
  // its random bits and variant, put the 48-bit millisecond time first and the version 7 after it.
  const random = randomUUID();
  const time = nowMs.toString(16).padStart(12, '0');
  return `${time.slice(0, 8)}-${time.slice(8, 12)}-7${random.slice(15)}`;
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
