import { commitOf, comparePositions, isPosition, parsePosition, positionOf, prepareOf, START } from './position';

describe('Position', () => {
  it('orders like (commit, prepare) under plain string comparison', () => {
    const a = positionOf(1n, 5n);
    const b = positionOf(2n, 1n);
    const c = positionOf(2n, 3n);
    expect([c, a, b].sort()).toEqual([a, b, c]);
    expect(comparePositions(a, b)).toBe(-1);
    expect(START < a).toBe(true);
  });

  it('round-trips 64-bit values', () => {
    const big = 2n ** 63n + 12345n;
    const p = positionOf(big, big - 1n);
    expect(commitOf(p)).toBe(big);
    expect(prepareOf(p)).toBe(big - 1n);
  });

  it('rejects what is not a position', () => {
    expect(isPosition('12')).toBe(false);
    expect(() => parsePosition('nope')).toThrow(RangeError);
    expect(() => positionOf(-1n)).toThrow(RangeError);
  });
});
