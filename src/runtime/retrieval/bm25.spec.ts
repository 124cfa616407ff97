import { Bm25Index, idf } from './bm25';

const FIELDS = [
  { weight: 3, b: 0.75 },
  { weight: 1, b: 0.75 },
];

function score(index: Bm25Index, query: string[], doc: number): number {
  let s = 0;
  for (const term of query) {
    const id = index.termId(term);
    if (id === undefined) continue;
    const { docs, weights } = index.postings(id);
    const at = Array.from(docs).indexOf(doc);
    if (at >= 0) s += index.idf(id) * weights[at];
  }
  return s;
}

describe('Bm25Index', () => {
  it('gives rare terms a higher idf than common ones', () => {
    expect(idf(100, 1)).toBeGreaterThan(idf(100, 50));
    expect(idf(100, 100)).toBeGreaterThan(0);
  });

  it('indexes postings in document order with their document frequency', () => {
    const index = Bm25Index.build(
      [
        [['refund'], ['money', 'back']],
        [['delivery'], ['refund', 'parcel']],
        [['hours'], ['open', 'close']],
      ],
      { k1: 1.2, fields: FIELDS },
    );
    expect(index.docCount).toBe(3);
    const id = index.termId('refund')!;
    expect(Array.from(index.postings(id).docs)).toEqual([0, 1]);
    expect(index.docFreq(id)).toBe(2);
    expect(index.termId('missing')).toBeUndefined();
  });

  it('weighs a match in a heavier field more', () => {
    const index = Bm25Index.build(
      [
        [['refund'], ['policy', 'text']],
        [['policy'], ['refund', 'text']],
      ],
      { k1: 1.2, fields: FIELDS },
    );
    expect(score(index, ['refund'], 0)).toBeGreaterThan(score(index, ['refund'], 1));
  });

  it('saturates repeated terms and normalises by length', () => {
    const long = Array.from({ length: 40 }, (_, i) => `filler${i}`);
    const index = Bm25Index.build(
      [
        [[], ['refund']],
        [[], ['refund', 'refund', 'refund']],
        [[], ['refund', ...long]],
      ],
      { k1: 1.2, fields: FIELDS },
    );
    const one = score(index, ['refund'], 0);
    const three = score(index, ['refund'], 1);
    expect(three).toBeGreaterThan(one);
    expect(three).toBeLessThan(3 * one);
    expect(score(index, ['refund'], 2)).toBeLessThan(one);
  });

  it('builds an empty index', () => {
    const index = Bm25Index.build([], { k1: 1.2, fields: FIELDS });
    expect(index.docCount).toBe(0);
    expect(index.termId('x')).toBeUndefined();
  });
});
