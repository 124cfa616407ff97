import { createHash } from 'node:crypto';
import type { Candidate } from '../../projections/conversations/queries';

export interface EmbeddingsConfig {
  baseUrl: string;
  apiKey: string | null;
  model: string;
  timeoutMs: number;
}

/**
 * An OpenAI-compatible `/v1/embeddings` client (a hosted model is a boundary this project cannot
 * run; tests stand up a small server speaking the protocol). Throws on any failure: the caller
 * falls back to the embedded ranking.
 */
export class EmbeddingsClient {
  constructor(private readonly config: EmbeddingsConfig) {}

  async embed(texts: string[]): Promise<number[][]> {
    const response = await fetch(`${this.config.baseUrl.replace(/\/$/, '')}/v1/embeddings`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        ...(this.config.apiKey ? { authorization: `Bearer ${this.config.apiKey}` } : {}),
      },
      body: JSON.stringify({ model: this.config.model, input: texts }),
      signal: AbortSignal.timeout(this.config.timeoutMs),
    });
    if (!response.ok) throw new Error(`embeddings endpoint answered HTTP ${response.status}`);
    const body = (await response.json()) as { data?: Array<{ index?: number; embedding?: number[] }> };
    const data = body.data ?? [];
    if (data.length !== texts.length)
      throw new Error(`embeddings endpoint returned ${data.length} vectors for ${texts.length} inputs`);
    const out: number[][] = new Array(texts.length);
    data.forEach((item, i) => {
      if (!Array.isArray(item.embedding)) throw new Error('embeddings endpoint returned an item without a vector');
      out[item.index ?? i] = item.embedding;
    });
    return out;
  }
}

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
      const embedded = await this.client.embed(chunk.map((k) => textOf.get(k)!));
      chunk.forEach((k, j) => {
        if (this.vectors.size >= CACHED_VECTORS) this.vectors.delete(this.vectors.keys().next().value!);
        this.vectors.set(k, Float32Array.from(embedded[j]));
      });
    }
    return keys.map((k) => this.vectors.get(k)!);
  }
}

function cosine(a: Float32Array, b: Float32Array): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    dot += a[i] * b[i];
    na += a[i] * a[i];
    nb += b[i] * b[i];
  }
  return na === 0 || nb === 0 ? 0 : dot / Math.sqrt(na * nb);
}
