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

  it('derivedUuid is stable for a name and differs between names', () => {
    expect(derivedUuid('timer-1#0')).toBe(derivedUuid('timer-1#0'));
    expect(derivedUuid('timer-1#0')).not.toBe(derivedUuid('timer-1#1'));
    expect(derivedUuid('x')).toMatch(UUID);
  });

  it('base32 encodes 5 bits per character', () => {
    expect(base32(Buffer.from([0xff]))).toBe('74');
    expect(new RandomIdGenerator().short(10)).toMatch(/^[a-z2-7]{16}$/);
  });
});
