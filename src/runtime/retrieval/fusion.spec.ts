import { fuseRankings, nearestTopics, RRF_K } from './fusion';

const hit = (topicId: string, confidence: number) => ({ topicId, name: topicId.toUpperCase(), score: 1, confidence });
const near = (topicId: string, similarity: number) => ({ topicId, name: topicId.toUpperCase(), similarity });

describe('reciprocal rank fusion of the lexical and vector rankings', () => {
  it('adds 1 / (k + rank) from each ranking a topic is in', () => {
    const fused = fuseRankings([hit('a', 0.9), hit('b', 0.5)], [near('b', 0.8), near('c', 0.7)], 0.5, 5);
    expect(fused.map((h) => h.topicId)).toEqual(['b', 'a', 'c']);
    expect(fused[0].score).toBeCloseTo(1 / (RRF_K + 2) + 1 / (RRF_K + 1));
    expect(fused[1].score).toBeCloseTo(1 / (RRF_K + 1));
  });

  it('keeps lexical confidence unless the similarity clears the bar, then takes the larger', () => {
    const fused = fuseRankings([hit('a', 0.3)], [near('a', 0.45), near('b', 0.6)], 0.5, 5);
    expect(fused.find((h) => h.topicId === 'a')!.confidence).toBe(0.3); // 0.45 is under the bar
    expect(fused.find((h) => h.topicId === 'b')!.confidence).toBeCloseTo(0.6); // no word matched; the vector counts
    const strict = fuseRankings([hit('a', 0.8)], [near('a', 0.6)], 0.5, 5);
    expect(strict[0].confidence).toBe(0.8); // a vector never lowers confidence
  });

  it('breaks ties by the lexical order, and keeps the limit', () => {
    const fused = fuseRankings([hit('a', 0.2), hit('b', 0.2)], [near('b', 0.9), near('a', 0.9)], 0.5, 1);
    expect(fused.map((h) => h.topicId)).toEqual(['a']);
  });

  it('is the lexical ranking when there are no vectors', () => {
    expect(fuseRankings([hit('a', 0.4), hit('b', 0.1)], [], 0.5, 5).map((h) => [h.topicId, h.confidence])).toEqual([
      ['a', 0.4],
      ['b', 0.1],
    ]);
  });
});

describe('the topics nearest a unit vector', () => {
  it('ranks by dot product and keeps the depth', () => {
    const vectors = Float32Array.from([1, 0, 0, 1, Math.SQRT1_2, Math.SQRT1_2]);
    const query = Float32Array.from([1, 0]);
    expect(nearestTopics(query, vectors, 2).map((n) => n.index)).toEqual([0, 2]);
    expect(nearestTopics(query, vectors, 5).map((n) => Number(n.similarity.toFixed(3)))).toEqual([1, 0.707, 0]);
    expect(nearestTopics(Float32Array.from([]), vectors, 5)).toEqual([]);
  });
});
