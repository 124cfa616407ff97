import http from 'node:http';
import https from 'node:https';

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

/**
 * Kept-alive connections shared by every client of the process: a turn's call reuses one
 * (node:http is about a millisecond cheaper per call than fetch, which a hybrid turn pays).
 */
const AGENTS = {
  'http:': new http.Agent({ keepAlive: true, maxSockets: 64 }),
  'https:': new https.Agent({ keepAlive: true, maxSockets: 64 }),
};

export class EmbeddingsClient {
  constructor(
    private readonly config: EmbeddingsConfig,
    private readonly maxBodyBytes = DEFAULT_MAX_BODY_BYTES,
  ) {}

  /** The vectors of `texts`, or an EmbeddingsError; `timeoutMs` bounds the whole exchange (default: the config's). */
  async embed(texts: readonly string[], timeoutMs = this.config.timeoutMs): Promise<Embedded> {
    const url = new URL(`${this.config.baseUrl.replace(/\/+$/, '')}/v1/embeddings`);
    const raw = await this.post(url, JSON.stringify({ model: this.config.model, input: texts }), timeoutMs);
    return parseEmbeddings(raw, texts.length);
  }

  private post(url: URL, body: string, timeoutMs: number): Promise<string> {
    const secure = url.protocol === 'https:';
    return new Promise<string>((resolve, reject) => {
      let settled = false;
      const fail = (error: EmbeddingsError) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        request.destroy();
        reject(error);
      };
      const timer = setTimeout(
        () => fail(new EmbeddingsError('timeout', 'the embeddings endpoint did not answer in time')),
        timeoutMs,
      );
      const request = (secure ? https : http).request(
        url,
        {
          method: 'POST',
          agent: AGENTS[secure ? 'https:' : 'http:'],
          headers: {
            'content-type': 'application/json',
            'content-length': Buffer.byteLength(body),
            ...(this.config.apiKey ? { authorization: `Bearer ${this.config.apiKey}` } : {}),
          },
        },
        (response) => {
          const status = response.statusCode ?? 0;
          if (status < 200 || status >= 300) {
            response.resume();
            return fail(new EmbeddingsError('http_error', `the embeddings endpoint answered HTTP ${status}`));
          }
          const tooLarge = () => new EmbeddingsError('malformed', `the answer is over ${this.maxBodyBytes} bytes`);
          if (Number(response.headers['content-length']) > this.maxBodyBytes) return fail(tooLarge());
          const chunks: Buffer[] = [];
          let size = 0;
          response.on('data', (chunk: Buffer) => {
            size += chunk.byteLength;
            if (size > this.maxBodyBytes) fail(tooLarge());
            else chunks.push(chunk);
          });
          response.on('end', () => {
            if (settled) return;
            settled = true;
            clearTimeout(timer);
            resolve(Buffer.concat(chunks).toString('utf8'));
          });
          response.on('error', () =>
            fail(new EmbeddingsError('unreachable', 'the embeddings endpoint broke off its answer')),
          );
        },
      );
      request.on('error', () =>
        fail(new EmbeddingsError('unreachable', 'the embeddings endpoint could not be reached')),
      );
      request.end(body);
    });
  }
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
