import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * The signature of a delivery (contract §13): hex HMAC-SHA256, keyed with the endpoint's signing
 * secret, over `"{timestamp}.{raw body}"`. The timestamp (unix seconds) is signed with the body so
 * a receiver can refuse replays of an old delivery.
 */
export function signPayload(secret: string, timestamp: number, rawBody: string): string {
  return createHmac('sha256', secret).update(`${timestamp}.${rawBody}`).digest('hex');
}

/** What a receiver does: recompute and compare in constant time. */
export function verifySignature(
  secret: string,
  timestamp: number | string,
  rawBody: string,
  signature: string,
): boolean {
  const expected = Buffer.from(signPayload(secret, Number(timestamp), rawBody), 'hex');
  const given = /^[0-9a-f]{64}$/i.test(signature) ? Buffer.from(signature, 'hex') : Buffer.alloc(0);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** The headers every delivery carries, besides the endpoint's own. */
export function deliveryHeaders(
  secret: string,
  timestamp: number,
  rawBody: string,
  eventId: string,
): Record<string, string> {
  return {
    'content-type': 'application/json',
    'user-agent': 'Parley-Webhooks/1',
    'x-webhook-timestamp': String(timestamp),
    'x-webhook-signature': signPayload(secret, timestamp, rawBody),
    'x-webhook-event-id': eventId,
  };
}
