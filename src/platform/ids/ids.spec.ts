import { derivedUuid } from './derived-id';
import { base32, RandomIdGenerator, uuidv7 } from './ids';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

describe('ids', () => {
  it('uuidv7 is a version 7 UUID ordered by time', () => {
    const a = uuidv7(1_700_000_000_000);
    const b = uuidv7(1_700_000_000_001);
    expect(a).toMatch(UUID);
    expect(a[14]).toBe('7');
    expect(a < b).toBe(true);
  });

  it('uuidv7 carries the time in its first 48 bits, the RFC variant, and random bits that differ', () => {
    const ms = 1_700_000_000_123;
    const ids = Array.from({ length: 1000 }, () => uuidv7(ms));
    for (const id of ids) {
      expect(parseInt(id.replace(/-/g, '').slice(0, 12), 16)).toBe(ms);
      expect('89ab').toContain(id[19]);
    }
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('derivedUuid is stable for a name and differs between names', () => {
    expect(derivedUuid('timer-1#0')).toBe(derivedUuid('timer-1#0'));
    expect(derivedUuid('timer-1#0')).not.toBe(derivedUuid('timer-1#1'));
    expect(derivedUuid('x')).toMatch(UUID);
  });

  it('derivedUuid derives what it always derived: stored events are matched by these ids on a retry', () => {
    // values of the first implementation (createHash('sha256').update(name)), UTF-8 names included
    expect(derivedUuid('external-event:agent-1:pay-42:abc')).toBe('5e27b6cd-8262-82d6-930e-e9fb3cd117ba');
    expect(derivedUuid('café ☕')).toBe('a7e46d54-2898-82af-aaa5-b08c2fbab5d2');
  });

  it('base32 encodes 5 bits per character', () => {
    expect(base32(Buffer.from([0xff]))).toBe('74');
    expect(new RandomIdGenerator().short(10)).toMatch(/^[a-z2-7]{16}$/);
  });
});
