import { CONNECTOR_TOKEN_PREFIX, KEY_PREFIX, maskKey, newCredential, WEBHOOK_SECRET_PREFIX } from './credentials';

describe('credentials', () => {
  it('keys, connector tokens and webhook secrets carry their recognisable prefixes', () => {
    expect(KEY_PREFIX).toBe('sk_');
    expect(CONNECTOR_TOKEN_PREFIX).toBe('ct_');
    expect(WEBHOOK_SECRET_PREFIX).toBe('whsec_');
    expect(newCredential(KEY_PREFIX)).toMatch(/^sk_/);
    expect(newCredential(CONNECTOR_TOKEN_PREFIX)).toMatch(/^ct_/);
    expect(newCredential(WEBHOOK_SECRET_PREFIX)).toMatch(/^whsec_/);
  });

  it('a value holds at least 160 bits of randomness and never repeats', () => {
    const seen = new Set<string>();
    for (let i = 0; i < 2000; i++) {
      const value = newCredential('sk_');
      const body = value.slice(3);
      // base32: 5 bits a character
      expect(body).toMatch(/^[a-z2-7]+$/);
      expect(body.length * 5).toBeGreaterThanOrEqual(160);
      seen.add(value);
    }
    expect(seen.size).toBe(2000);
  });

  it('every character position varies (no fixed filler)', () => {
    const values = Array.from({ length: 200 }, () => newCredential('sk_').slice(3));
    const length = values[0].length;
    // the last character of 25 bytes in base32 holds 0 spare bits, so every position is random
    for (let i = 0; i < length; i++) expect(new Set(values.map((v) => v[i])).size).toBeGreaterThan(1);
  });

  it('the mask is sk_… plus the last four characters', () => {
    expect(maskKey('wxyz')).toBe('sk_…wxyz');
  });
});
