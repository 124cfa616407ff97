import { randomBytes } from 'node:crypto';
import { base32 } from '../ids/ids';

/**
 * Credential values: a recognisable prefix and 200 bits of randomness (25 bytes, base32), so a
 * leaked value is easy to spot in a scanner and impossible to guess.
 */
export const KEY_PREFIX = 'sk_';
export const CONNECTOR_TOKEN_PREFIX = 'ct_';
export const WEBHOOK_SECRET_PREFIX = 'whsec_';

export function newCredential(prefix: string): string {
  return `${prefix}${base32(randomBytes(25))}`;
}

/** `sk_…` + the last 4 characters: enough to tell keys apart in a list, useless to an attacker. */
export function maskKey(last4: string): string {
  return `${KEY_PREFIX}…${last4}`;
}
