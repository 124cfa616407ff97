/**
 * An OpenAI-compatible `/v1/embeddings` client: what semantic search (EMBEDDINGS_BASE_URL) and
 * hybrid retrieval (an operator's embeddings endpoint) call. A hosted model is a boundary this
 * project cannot run; tests stand up a small server speaking the protocol.
 *
 * It trusts nothing it is sent: the body is read up to a bound, every vector must be an array of
 * finite numbers, all of one dimension, one per input. Any failure throws an EmbeddingsError whose
 * `reason` is a class (never socket text), for the caller's fallback and its record.
 */

export interface EmbeddingsConfig {
  baseUrl: string;
  apiKey: string | null;
  model: string;
  timeoutMs: number;
}

/** Why a call gave no vectors. */
export type EmbeddingsFailure = 'timeout' | 'http_error' | 'malformed' | 'unreachable';

export class EmbeddingsError extends Error {
  constructor(
    readonly reason: EmbeddingsFailure,
    message: string,
  ) {
    super(message);
  }
}

export interface Embedded {
  /** the model the endpoint says answered (its `model` field), or null when it says none */
  model: string | null;
  dimension: number;
  /** one per input, in input order */
  vectors: Float32Array[];
}

/** A body larger than this is refused, read no further (about 64 vectors of 3072 dimensions as JSON). */
const DEFAULT_MAX_BODY_BYTES = 16 * 1024 * 1024;

export class EmbeddingsClient {
  constructor(
    private readonly config: EmbeddingsConfig,
    private readonly maxBodyBytes = DEFAULT_MAX_BODY_BYTES,
  ) {}

  /** The vectors of `texts`, or an EmbeddingsError; `timeoutMs` bounds the whole exchange (default: the config's). */
  async embed(texts: readonly string[], timeoutMs = this.config.timeoutMs): Promise<Embedded> {
    const signal = AbortSignal.timeout(timeoutMs);
    let raw: string;
    try {
      const response = await fetch(`${this.config.baseUrl.replace(/\/+$/, '')}/v1/embeddings`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          ...(this.config.apiKey ? { authorization: `Bearer ${this.config.apiKey}` } : {}),
        },
        body: JSON.stringify({ model: this.config.model, input: texts }),
        signal,
      });
      if (!response.ok) {
        await response.body?.cancel().catch(() => undefined);
        throw new EmbeddingsError('http_error', `the embeddings endpoint answered HTTP ${response.status}`);
      }
      raw = await readBounded(response, this.maxBodyBytes);
    } catch (error) {
      throw classify(error, signal);
    }
    return parseEmbeddings(raw, texts.length);
  }
}

async function readBounded(response: Response, maxBytes: number): Promise<string> {
  const declared = Number(response.headers.get('content-length'));
  if (declared > maxBytes) throw new EmbeddingsError('malformed', `the answer is over ${maxBytes} bytes`);
  if (!response.body) return '';
  const decoder = new TextDecoder();
  const reader = response.body.getReader();
  let size = 0;
  let text = '';
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return text + decoder.decode();
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel().catch(() => undefined);
      throw new EmbeddingsError('malformed', `the answer is over ${maxBytes} bytes`);
    }
    text += decoder.decode(value, { stream: true });
  }
}

function classify(error: unknown, signal: AbortSignal): EmbeddingsError {
  if (error instanceof EmbeddingsError) return error;
  // fetch (and a body read) rejects with a DOMException named TimeoutError when the signal fires
  if (signal.aborted || (error instanceof Error && error.name === 'TimeoutError'))
    return new EmbeddingsError('timeout', 'the embeddings endpoint did not answer in time');
  return new EmbeddingsError('unreachable', 'the embeddings endpoint could not be reached');
}

/** The protocol's answer, checked: `{data: [{index?, embedding: number[]}], model?}`. */
function parseEmbeddings(raw: string, inputs: number): Embedded {
  let body: unknown;
  try {
    body = JSON.parse(raw);
  } catch {
    throw new EmbeddingsError('malformed', 'the answer is not JSON');
  }
  const data = (body as { data?: unknown } | null)?.data;
  if (!Array.isArray(data) || data.length !== inputs)
    throw new EmbeddingsError(
      'malformed',
      `the answer holds ${Array.isArray(data) ? data.length : 'no'} vectors for ${inputs} inputs`,
    );
  const vectors: Float32Array[] = new Array(inputs);
  let dimension = -1;
  data.forEach((item: unknown, i) => {
    const { index = i, embedding } = (item ?? {}) as { index?: unknown; embedding?: unknown };
    if (!Number.isInteger(index) || (index as number) < 0 || (index as number) >= inputs || vectors[index as number])
      throw new EmbeddingsError('malformed', 'the answer has a vector out of place');
    if (!Array.isArray(embedding) || embedding.length === 0)
      throw new EmbeddingsError('malformed', 'the answer has an item without a vector');
    if (dimension !== -1 && embedding.length !== dimension)
      throw new EmbeddingsError('malformed', 'the answer mixes vectors of different dimensions');
    dimension = embedding.length;
    const vector = new Float32Array(dimension);
    for (let d = 0; d < dimension; d++) {
      const x: unknown = embedding[d];
      if (typeof x !== 'number' || !Number.isFinite(x))
        throw new EmbeddingsError('malformed', 'the answer has a vector that is not all numbers');
      vector[d] = x;
    }
    vectors[index as number] = vector;
  });
  const model = (body as { model?: unknown }).model;
  return {
    model: typeof model === 'string' && model.length > 0 ? model : null,
    dimension: Math.max(dimension, 0),
    vectors,
  };
}

/** Cosine similarity of two vectors of one dimension (0 when either is all zeros). */
export function cosine(a: Float32Array, b: Float32Array): number {
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
