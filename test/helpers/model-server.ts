import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Json } from './json';

/** What the stub answers a request: a status and a JSON body, or `hang` (no answer until it stops). */
export type ModelAnswer = { status: number; body: Json } | 'hang';

/** A chat completion's body with one assistant message, as the protocol has it. */
export const completion = (content: string): ModelAnswer => ({
  status: 200,
  body: {
    choices: [{ index: 0, message: { role: 'assistant', content } }],
    usage: { prompt_tokens: 10, completion_tokens: 5 },
  },
});

/**
 * A hosted model is a boundary that cannot exist here: this server on 127.0.0.1 speaks the
 * OpenAI-compatible `/v1/chat/completions` protocol, records every request body, and answers as
 * the test's `answer` decides from what it was sent (a whole JSON body; the client reads that as
 * well as a stream).
 */
export class ModelServer {
  readonly received: Json[] = [];

  private constructor(
    private readonly server: http.Server,
    readonly url: string,
  ) {}

  static async start(answer: (body: Json) => ModelAnswer): Promise<ModelServer> {
    const server = http.createServer((req, res) => {
      let raw = '';
      req.on('data', (chunk: Buffer) => (raw += chunk.toString('utf8')));
      req.on('end', () => {
        if (req.url !== '/v1/chat/completions' || req.method !== 'POST') return void res.writeHead(404).end();
        let body: Json;
        try {
          body = JSON.parse(raw);
        } catch {
          return void res.writeHead(400, { 'content-type': 'application/json' }).end('{"error":"not JSON"}');
        }
        model.received.push(body);
        const reply = answer(body);
        if (reply === 'hang') return;
        res.writeHead(reply.status, { 'content-type': 'application/json' }).end(JSON.stringify(reply.body));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const model = new ModelServer(server, `http://127.0.0.1:${(server.address() as AddressInfo).port}`);
    return model;
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise((resolve) => this.server.close(resolve));
  }
}
