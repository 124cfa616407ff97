import { isE164, METADATA_LIMITS, metadataProblem } from './call-request';

describe('call request rules', () => {
  it.each(['+15551234567', '+447700900123', '+4930123456', '+123456789012345'])('%s is E.164', (n) =>
    expect(isE164(n)).toBe(true),
  );
  it.each([
    '15551234567',
    '+05551234567',
    '+1 555 123 4567',
    '+1555123456a',
    '+1234567890123456',
    '+12345',
    '',
    15551234567,
    null,
  ])('%p is not E.164', (n) => expect(isE164(n)).toBe(false));

  it('accepts a string map within the limits', () => {
    expect(metadataProblem({})).toBeNull();
    expect(metadataProblem({ order_id: 'A-17', 'Customer-Name': 'Ada Lovelace', note: 'ünïcødé is fine' })).toBeNull();
    expect(
      metadataProblem(Object.fromEntries(Array.from({ length: METADATA_LIMITS.entries }, (_, i) => [`k${i}`, 'v']))),
    ).toBeNull();
  });

  it.each([
    ['a string', 'x', 'metadata must be an object'],
    ['an array', ['x'], 'metadata must be an object'],
    ['null', null, 'metadata must be an object'],
    ['a number value', { n: 1 }, 'metadata.n must be a string'],
    ['a nested object', { n: { a: 'b' } }, 'metadata.n must be a string'],
    ['a CRLF (header injection)', { n: 'x\r\nVia: evil' }, 'metadata.n must not contain control characters'],
    ['a key with a space', { 'a b': 'x' }, 'must start with a letter'],
    ['a key with a colon', { 'a:b': 'x' }, 'must start with a letter'],
    ['a key starting with a digit', { '1a': 'x' }, 'must start with a letter'],
    ['a built-in state key', { caller_number: 'x' }, 'metadata.caller_number is a built-in state key'],
    [
      'too many entries',
      Object.fromEntries(Array.from({ length: 21 }, (_, i) => [`k${i}`, 'v'])),
      'at most 20 entries',
    ],
    ['a long value', { n: 'x'.repeat(513) }, 'metadata.n must be at most 512'],
    [
      'too many bytes',
      Object.fromEntries(Array.from({ length: 5 }, (_, i) => [`k${i}`, 'x'.repeat(500)])),
      'at most 2048 bytes',
    ],
    ['keys differing only in case', { Order: '1', order: '2' }, 'differ in more than letter case'],
  ])('refuses %s', (_name, value, problem) => {
    expect(metadataProblem(value)).toContain(problem);
  });
});
