import { createHash } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A stand-in for a hosted embeddings model (OpenAI-compatible `POST /v1/embeddings`), on
 * 127.0.0.1: hosted models are a boundary this project cannot run. Its vectors are deterministic:
 * a hashed bag of words, each word (lowercased, a trailing "s" dropped) adding 1 to the dimension
 * its hash picks. A small synonym table maps words to a shared concept first, so a paraphrase that
 * shares no word with a topic ("my parcel never turned up" / "Lost deliveries") still lands near
 * it, as a real model's would; everything else is as far apart as hashing makes it.
 *
 * The test decides how it behaves (`mode`): answer, hang past any timeout, answer 500, answer
 * garbage, or answer as another model (another dimension). It records every request.
 */
export type EmbeddingsBehaviour =
  | {
      kind: 'answer';
      model?: string;
      dimension?: number;
      delayMs?: number;
      /** unit vectors with every component a full-precision float, as a hosted model's body is (the bench: its size and parse cost) */
      precise?: boolean;
    }
  | { kind: 'hang' }
  | { kind: 'status'; status: number }
  | { kind: 'garbage'; body: string };

const SYNONYMS: Record<string, string> = {
  parcel: 'delivery',
  package: 'delivery',
  order: 'delivery',
  shipment: 'delivery',
  delivery: 'delivery',
  deliverie: 'delivery',
  arrived: 'arrive',
  arrive: 'arrive',
  turned: 'arrive',
  showed: 'arrive',
  lost: 'missing',
  missing: 'missing',
  never: 'missing',
  money: 'refund',
  refund: 'refund',
  reimburse: 'refund',
  back: 'refund',
};

const STOPWORDS = new Set([
  'a',
  'an',
  'the',
  'my',
  'i',
  'it',
  'is',
  'to',
  'of',
  'up',
  'do',
  'you',
  'your',
  'what',
  'how',
]);

const DEFAULT_DIMENSION = 256;

/** The stub's vector of `text`. */
function stubVector(text: string, dimension = DEFAULT_DIMENSION, precise = false): number[] {
  const vector = new Array<number>(dimension).fill(0);
  for (const raw of text.toLowerCase().split(/[^a-z]+/)) {
    if (!raw || STOPWORDS.has(raw)) continue;
    const word = raw.length > 3 ? raw.replace(/s$/, '') : raw;
    const concept = SYNONYMS[word] ?? word;
    const slot = createHash('sha1').update(concept).digest().readUInt32BE(0) % dimension;
    vector[slot] += 1;
  }
  if (!precise) return vector;
  // the same small offset in every vector: similarities move by about 1e-4
  const norm = Math.sqrt(vector.reduce((sum, x) => sum + x * x, 0)) || 1;
  return vector.map((x, i) => x / norm + 1e-3 * Math.sin(i + 1));
}

export class EmbeddingsServer {
  /** every request body, in order */
  readonly requests: Array<{ model: string; input: string[]; authorization: string | undefined }> = [];
  /** milliseconds each answered request spent in this server, from its last byte read to its answer written */
  readonly serverMs: number[] = [];
  behaviour: EmbeddingsBehaviour = { kind: 'answer' };

  private constructor(
    private readonly server: http.Server,
    readonly url: string,
  ) {}

  static async start(): Promise<EmbeddingsServer> {
    const server = http.createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const stub = new EmbeddingsServer(server, `http://127.0.0.1:${(server.address() as AddressInfo).port}`);
    server.on('request', (req, res) => stub.handle(req, res));
    return stub;
  }

  /** How many requests embedded topics (more than one input, or the topic texts the test names). */
  inputsSent(): string[] {
    return this.requests.flatMap((r) => r.input);
  }

  private handle(req: http.IncomingMessage, res: http.ServerResponse): void {
    let raw = '';
    req.on('data', (chunk: Buffer) => (raw += chunk.toString('utf8')));
    req.on('end', () => {
      const started = performance.now();
      if (req.url !== '/v1/embeddings' || req.method !== 'POST') return void res.writeHead(404).end();
      let body: { model: string; input: string[] };
      try {
        body = JSON.parse(raw) as { model: string; input: string[] };
      } catch {
        return void res.writeHead(400).end('{"error":"not JSON"}');
      }
      this.requests.push({ ...body, authorization: req.headers.authorization });
      const behaviour = this.behaviour;
      switch (behaviour.kind) {
        case 'hang':
          return;
        case 'status':
          return void res.writeHead(behaviour.status, { 'content-type': 'application/json' }).end('{"error":"down"}');
        case 'garbage':
          return void res.writeHead(200, { 'content-type': 'application/json' }).end(behaviour.body);
        case 'answer': {
          const answer = () => {
            const data = body.input.map((text, index) => ({
              object: 'embedding',
              index,
              embedding: stubVector(text, behaviour.dimension, behaviour.precise),
            }));
            res
              .writeHead(200, { 'content-type': 'application/json' })
              .end(JSON.stringify({ object: 'list', model: behaviour.model ?? body.model, data }));
            this.serverMs.push(performance.now() - started);
          };
          if (behaviour.delayMs) setTimeout(answer, behaviour.delayMs);
          else answer();
        }
      }
    });
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise((resolve) => this.server.close(resolve));
  }
}
