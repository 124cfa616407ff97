import { checkSignature, signBody } from './sms-signature';

describe('inbound SMS signature (contract §11)', () => {
  const body = Buffer.from('{"from":"+15550001111","to":"+15550002222","text":"hi","provider_message_id":"SM1"}');

  it('accepts the HMAC of the raw body under the webhook secret, in either hex case', () => {
    expect(checkSignature('whsec_a', body, signBody('whsec_a', body))).toBe('ok');
    expect(checkSignature('whsec_a', body, signBody('whsec_a', body).toUpperCase().replace('SHA256=', 'sha256='))).toBe(
      'ok',
    );
  });

  it('refuses another secret, other bytes, a malformed header; tells a missing one apart', () => {
    expect(checkSignature('whsec_b', body, signBody('whsec_a', body))).toBe('invalid');
    expect(checkSignature('whsec_a', Buffer.concat([body, Buffer.from(' ')]), signBody('whsec_a', body))).toBe(
      'invalid',
    );
    expect(checkSignature('whsec_a', body, 'sha256=abc')).toBe('invalid');
    expect(checkSignature('whsec_a', body, signBody('whsec_a', body).slice(7))).toBe('invalid');
    expect(checkSignature('whsec_a', body, undefined)).toBe('missing');
    expect(checkSignature('whsec_a', body, '')).toBe('missing');
  });
});
