import fc from 'fast-check';
import { countOf, merge, parseHistogram, quantile, record, type LogHistogram } from './log-histogram';

function exactQuantile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.max(1, Math.ceil(p * sorted.length)) - 1];
}

const sketchOf = (values: number[]) => {
  const h: LogHistogram = {};
  for (const v of values) record(h, v);
  return h;
};

describe('LogHistogram', () => {
  it('answers every percentile within 1% of the exact nearest-rank value', () => {
    fc.assert(
      fc.property(
        fc.array(fc.double({ min: 1, max: 86_400_000, noNaN: true }), { minLength: 1, maxLength: 300 }),
        fc.double({ min: 0.01, max: 1, noNaN: true }),
        (values, p) => {
          const exact = exactQuantile(values, p);
          const answer = quantile(sketchOf(values), p)!;
          expect(Math.abs(answer - exact) / exact).toBeLessThanOrEqual(0.0101);
        },
      ),
    );
  });

  it('merges to the sketch of all the values together, whatever the split', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 0, max: 10_000_000 })),
        fc.array(fc.integer({ min: 0, max: 10_000_000 })),
        (a, b) => {
          const merged = sketchOf(a);
          merge(merged, sketchOf(b));
          expect(merged).toEqual(sketchOf([...a, ...b]));
          expect(countOf(merged)).toBe(a.length + b.length);
        },
      ),
    );
  });

  it('is null when empty, 0 for values under 1, and ignores what is not a duration', () => {
    expect(quantile({}, 0.5)).toBeNull();
    const h = sketchOf([0, 0.4, -5, Number.NaN, Number.POSITIVE_INFINITY]);
    expect(countOf(h)).toBe(2);
    expect(quantile(h, 0.9)).toBe(0);
  });

  it('reads a damaged stored sketch as empty', () => {
    expect(parseHistogram('{oops')).toEqual({});
    expect(parseHistogram('[1,2]')).toEqual({});
    expect(parseHistogram(null)).toEqual({});
    expect(parseHistogram('{"3":2}')).toEqual({ 3: 2 });
  });
});
