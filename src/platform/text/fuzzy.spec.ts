import { editDistance, FuzzyIndex, maxDistanceFor } from './fuzzy';

describe('editDistance (optimal string alignment)', () => {
  it('counts insertions, deletions, substitutions and adjacent swaps as one edit', () => {
    expect(editDistance('refund', 'refund', 2)).toBe(0);
    expect(editDistance('refnud', 'refund', 2)).toBe(1);
    expect(editDistance('refund', 'refunds', 2)).toBe(1);
    expect(editDistance('refund', 'rfund', 2)).toBe(1);
    expect(editDistance('refund', 'refond', 2)).toBe(1);
    expect(editDistance('cancelaton', 'cancellation', 2)).toBe(2);
  });
  it('stops at max + 1', () => {
    expect(editDistance('refund', 'delivery', 2)).toBe(3);
    expect(editDistance('a', 'abcdef', 1)).toBe(2);
  });
});

describe('FuzzyIndex', () => {
  const index = FuzzyIndex.build([
    'refund',
    'refunds',
    'cancellation',
    'cancel',
    'delivery',
    'deliver',
    'hours',
    'house',
    'charge',
  ]);

  it('finds words one edit away', () => {
    expect(index.lookup('refnud', 1)).toEqual([{ word: 'refund', distance: 1 }]);
    expect(index.lookup('delivry', 1).map((m) => m.word)).toEqual(['delivery']);
    expect(index.lookup('delivr', 1).map((m) => m.word)).toEqual(['deliver']);
  });

  it('finds long words two edits away', () => {
    expect(index.lookup('cancelaton', 2)).toEqual([{ word: 'cancellation', distance: 2 }]);
    expect(index.lookup('canclelation', 2)).toEqual([{ word: 'cancellation', distance: 1 }]); // one swap
    expect(index.lookup('cansellatoin', 2)).toEqual([{ word: 'cancellation', distance: 2 }]);
  });

  it('returns exact words at distance 0, nearest first', () => {
    const found = index.lookup('refund', 1);
    expect(found[0]).toEqual({ word: 'refund', distance: 0 });
    expect(found.map((m) => m.word)).toEqual(['refund', 'refunds']);
  });

  it('returns nothing when nothing is close', () => {
    expect(index.lookup('weather', 1)).toEqual([]);
    expect(index.lookup('xyz', 0)).toEqual([]);
    expect(FuzzyIndex.build([]).lookup('refund', 2)).toEqual([]);
  });

  it('allows two edits only for words of 8+ letters', () => {
    expect(maxDistanceFor(3)).toBe(0);
    expect(maxDistanceFor(4)).toBe(1);
    expect(maxDistanceFor(7)).toBe(1);
    expect(maxDistanceFor(8)).toBe(2);
  });

  it('handles many words without scanning them per query', () => {
    const words = Array.from({ length: 20_000 }, (_, i) => `word${i.toString(36)}x`);
    const big = FuzzyIndex.build([...words, 'cancellation']);
    expect(big.vocabularySize).toBe(20_001);
    expect(big.lookup('cancelaton', 2).map((m) => m.word)).toEqual(['cancellation']);
  });
});
