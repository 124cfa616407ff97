import { createHmac } from 'node:crypto';
import { deliveryHeaders, signPayload, verifySignature } from './signature';

describe('webhook signatures', () => {
  const secret = 'whsec_test';
  const body = '{"id":"evt_1","type":"conversation.started"}';

  it('is the hex HMAC-SHA256 of "{timestamp}.{raw body}" with the signing secret', () => {
    const expected = createHmac('sha256', secret).update(`1767225600.${body}`).digest('hex');
    expect(signPayload(secret, 1767225600, body)).toBe(expected);
    expect(expected).toMatch(/^[0-9a-f]{64}$/);
  });

  it('verifies only the same secret, timestamp and bytes', () => {
    const signature = signPayload(secret, 1767225600, body);
    expect(verifySignature(secret, '1767225600', body, signature)).toBe(true);
    expect(verifySignature('whsec_other', 1767225600, body, signature)).toBe(false);
    expect(verifySignature(secret, 1767225601, body, signature)).toBe(false);
    expect(verifySignature(secret, 1767225600, `${body} `, signature)).toBe(false);
    expect(verifySignature(secret, 1767225600, body, 'nothex')).toBe(false);
  });

  it('puts timestamp, signature and event id in the delivery headers', () => {
    expect(deliveryHeaders(secret, 1767225600, body, 'evt_1')).toEqual({
      'content-type': 'application/json',
      'user-agent': 'Parley-Webhooks/1',
      'x-webhook-timestamp': '1767225600',
      'x-webhook-signature': signPayload(secret, 1767225600, body),
      'x-webhook-event-id': 'evt_1',
    });
  });
});
