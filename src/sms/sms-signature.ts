import { createHmac, timingSafeEqual } from 'node:crypto';

const HEADER = /^sha256=([0-9a-f]{64})$/i;

/**
 * Contract §11: `X-Signature: sha256=<hex HMAC-SHA256(webhookSecret, raw body)>`, checked over the
 * bytes as they arrived, in constant time.
 */
export function checkSignature(
  secret: string,
  rawBody: Buffer,
  header: string | undefined,
): 'ok' | 'missing' | 'invalid' {
  if (header === undefined || header.trim() === '') return 'missing';
  const match = HEADER.exec(header.trim());
  if (!match) return 'invalid';
  const expected = createHmac('sha256', secret).update(rawBody).digest();
  const given = Buffer.from(match[1], 'hex');
  return given.length === expected.length && timingSafeEqual(given, expected) ? 'ok' : 'invalid';
}

export function signBody(secret: string, rawBody: string | Buffer): string {
  return `sha256=${createHmac('sha256', secret).update(rawBody).digest('hex')}`;
}
