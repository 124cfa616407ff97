import { createHash } from 'node:crypto';
import type { Candidate } from '../../projections/conversations/queries';
import { cosine, type EmbeddingsClient } from '../platform/embeddings/embeddings-client';

const CACHED_VECTORS = 50_000;
const PER_REQUEST = 256;

/**
 * Semantic ranking by embeddings: the query and each candidate turn's text are embedded (turn
 * vectors are cached by text, which repeats a lot in conversations), and conversations are ordered
 * by their best turn's cosine similarity to the query.
 */
export class EmbeddingRanker {
  private readonly vectors = new Map<string, Float32Array>();

  constructor(private readonly client: EmbeddingsClient) {}

  async rank(query: string, candidates: Candidate[]): Promise<string[]> {
    const texts = [query, ...candidates.map((c) => c.text)];
    const vectors = await this.vectorsOf(texts);
    const q = vectors[0];
    const best = new Map<string, number>();
    candidates.forEach((c, i) => {
      const score = cosine(q, vectors[i + 1]);
      if (score > (best.get(c.conversationId) ?? -Infinity)) best.set(c.conversationId, score);
    });
    return [...best.entries()].sort((a, b) => b[1] - a[1]).map(([id]) => id);
  }

  private async vectorsOf(texts: string[]): Promise<Float32Array[]> {
    const keys = texts.map((t) => createHash('sha1').update(t).digest('base64'));
    const missing = [...new Set(keys.filter((k) => !this.vectors.has(k)))];
    const textOf = new Map(keys.map((k, i) => [k, texts[i]]));
    for (let i = 0; i < missing.length; i += PER_REQUEST) {
      const chunk = missing.slice(i, i + PER_REQUEST);
      const { vectors } = await this.client.embed(chunk.map((k) => textOf.get(k)!));
      chunk.forEach((k, j) => {
        if (this.vectors.size >= CACHED_VECTORS) this.vectors.delete(this.vectors.keys().next().value!);
        this.vectors.set(k, vectors[j]);
      });
    }
    return keys.map((k) => this.vectors.get(k)!);
  }
}
