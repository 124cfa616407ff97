import fc from 'fast-check';
import { redact } from './redact';
import { REDACT_KINDS } from './redact-kinds';
import { redactValue } from './redact-value';

const ALL = REDACT_KINDS;
const CLEAR = [
  'jane@example.com',
  '+44 20 7946 0958',
  '4111 1111 1111 1111',
  'GB82 WEST 1234 5698 7654 32',
  '123-45-6789',
];

describe('redactValue', () => {
  it('redacts every string inside objects and arrays, keys and other values left alone', () => {
    const value = {
      email: 'write to jane@example.com',
      'jane@example.com': 42,
      nested: { list: ['call +44 20 7946 0958', 7, true, null, { card: '4111 1111 1111 1111' }] },
      ok: 'nothing here',
    };
    expect(redactValue(value, ALL)).toEqual({
      email: 'write to [EMAIL]',
      'jane@example.com': 42,
      nested: { list: ['call [PHONE]', 7, true, null, { card: '[CARD]' }] },
      ok: 'nothing here',
    });
    // a copy: the value given is not changed
    expect(value.email).toBe('write to jane@example.com');
  });

  it('is redact on a string, and the value itself when nothing is on', () => {
    expect(redactValue('ssn 123-45-6789', ALL)).toBe('ssn [SSN]');
    const value = { a: 'jane@example.com' };
    expect(redactValue(value, [])).toBe(value);
    expect(redactValue(12, ALL)).toBe(12);
    expect(redactValue(null, ALL)).toBeNull();
  });

  it('keeps a key named __proto__ as a property, never as the copy prototype', () => {
    const value = JSON.parse('{"__proto__": {"polluted": "jane@example.com"}, "a": 1}') as Record<string, unknown>;
    const copy = redactValue(value, ALL);
    expect(Object.getPrototypeOf(copy)).toBe(Object.prototype);
    expect((copy as { polluted?: unknown }).polluted).toBeUndefined();
    expect(Object.getOwnPropertyDescriptor(copy, '__proto__')?.value).toEqual({ polluted: '[EMAIL]' });
    expect(JSON.stringify(copy)).toBe('{"__proto__":{"polluted":"[EMAIL]"},"a":1}');
  });

  it('walks nesting of any depth without overflowing the stack', () => {
    let deep: unknown = 'jane@example.com';
    for (let i = 0; i < 200_000; i++) deep = i % 2 ? { v: deep } : [deep];
    let out = redactValue(deep, ALL);
    for (let i = 200_000 - 1; i >= 0; i--) out = i % 2 ? (out as { v: unknown }).v : (out as unknown[])[0];
    expect(out).toBe('[EMAIL]');
  });

  it('ends on a shared or cyclic object (which parsed JSON never has)', () => {
    const shared = { email: 'jane@example.com' };
    const cyclic: Record<string, unknown> = { shared, again: shared };
    cyclic.self = cyclic;
    const copy = redactValue(cyclic, ALL);
    expect(copy.self).toBe(copy);
    expect(copy.shared).toEqual({ email: '[EMAIL]' });
    expect(copy.again).toBe(copy.shared);
  });

  it('on any JSON value: the same shape and keys, every string as redact makes it', () => {
    const withClear = fc.oneof(fc.string(), fc.constantFrom(...CLEAR.map((c) => `it is ${c} ok`)));
    const json = fc.letrec((tie) => ({
      value: fc.oneof(
        { depthSize: 'small' },
        withClear,
        fc.double({ noNaN: true }),
        fc.boolean(),
        fc.constant(null),
        fc.array(tie('value'), { maxLength: 4 }),
        fc.dictionary(fc.oneof(fc.string(), fc.constantFrom('__proto__', 'constructor')), tie('value'), {
          maxKeys: 4,
        }),
      ),
    })).value;
    const expected = (v: unknown): unknown =>
      typeof v === 'string'
        ? redact(v, ALL)
        : Array.isArray(v)
          ? v.map(expected)
          : v !== null && typeof v === 'object'
            ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, expected(x)]))
            : v;
    fc.assert(
      fc.property(json, (value) => {
        const out = redactValue(value, ALL);
        expect(JSON.stringify(out)).toBe(JSON.stringify(expected(value)));
        for (const clear of CLEAR) expect(JSON.stringify(out)).not.toContain(clear);
      }),
      { numRuns: 500 },
    );
  });
});
