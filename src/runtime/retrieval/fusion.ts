/**
 * Hybrid retrieval's ranking (docs/retrieval.md): the lexical ranking (BM25F, topic-index.ts) and
 * the ranking by the cosine similarity of topic vectors to the question's, fused by reciprocal rank
 * fusion. Pure: no I/O.
 */
import type { SearchHit } from './topic-index';

/** RRF's constant: a topic ranked r-th (from 1) in a list adds 1 / (RRF_K + r). 60, as Cormack et al. */
export const RRF_K = 60;

/** How deep each ranking goes into the fusion. */
export const FUSION_DEPTH = 20;

/** What `retrieval.min_similarity` defaults to: the cosine similarity from which a vector alone may make a topic confident. */
export const DEFAULT_MIN_SIMILARITY = 0.5;

/**
 * The `limit` best topics of the fused ranking, best first. Each hit's confidence is the topic's
 * lexical confidence (0 when the lexical ranking does not have it), raised to its cosine
 * similarity when that similarity is at or above `minSimilarity`: the out-of-domain threshold
 * still compares with the share of the question's words a topic matches, and a topic that matches
 * none of them may pass it only on a similarity the operator calibrated as meaning the same thing.
 * Ties keep the lexical order first.
 */
export function fuseRankings(
  lexical: readonly SearchHit[],
  byVector: ReadonlyArray<{ topicId: string; name: string; similarity: number }>,
  minSimilarity: number,
  limit: number,
): SearchHit[] {
  const fused = new Map<string, { hit: SearchHit; score: number; order: number }>();
  const similarity = new Map(byVector.map((v) => [v.topicId, v.similarity]));
  lexical.forEach((hit, rank) => fused.set(hit.topicId, { hit, score: 1 / (RRF_K + rank + 1), order: rank }));
  byVector.forEach((v, rank) => {
    const entry = fused.get(v.topicId);
    if (entry) entry.score += 1 / (RRF_K + rank + 1);
    else
      fused.set(v.topicId, {
        hit: { topicId: v.topicId, name: v.name, score: 0, confidence: 0 },
        score: 1 / (RRF_K + rank + 1),
        order: lexical.length + rank,
      });
  });
  return [...fused.values()]
    .sort((a, b) => b.score - a.score || a.order - b.order)
    .slice(0, limit)
    .map(({ hit, score }) => {
      const s = similarity.get(hit.topicId);
      const confidence =
        s !== undefined && s >= minSimilarity ? Math.max(hit.confidence, Math.min(1, s)) : hit.confidence;
      return { topicId: hit.topicId, name: hit.name, score, confidence };
    });
}

/**
 * The `depth` topics most similar to `query` (unit length), best first: `vectors` holds one unit
 * vector of `query.length` per topic, so a dot product is the cosine.
 */
export function nearestTopics(
  query: Float32Array,
  vectors: Float32Array,
  depth: number,
): Array<{ index: number; similarity: number }> {
  const d = query.length;
  const n = d === 0 ? 0 : vectors.length / d;
  const top: Array<{ index: number; similarity: number }> = [];
  const rest = d % 4;
  for (let t = 0; t < n; t++) {
    // four sums at once: the additions do not wait on one another
    let a = 0;
    let b = 0;
    let c = 0;
    let e = 0;
    const base = t * d;
    let i = 0;
    for (; i < d - rest; i += 4) {
      a += query[i] * vectors[base + i];
      b += query[i + 1] * vectors[base + i + 1];
      c += query[i + 2] * vectors[base + i + 2];
      e += query[i + 3] * vectors[base + i + 3];
    }
    for (; i < d; i++) a += query[i] * vectors[base + i];
    const dot = a + b + c + e;
    if (top.length === depth && !(dot > top[top.length - 1].similarity)) continue;
    let at = top.length;
    while (at > 0 && dot > top[at - 1].similarity) at--;
    top.splice(at, 0, { index: t, similarity: dot });
    if (top.length > depth) top.pop();
  }
  return top;
}
