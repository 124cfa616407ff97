import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { EmbeddingsClient, EmbeddingsError } from './embeddings-client';

/** A server on 127.0.0.1 answering whatever the test sets: the client's checks against a real socket. */
describe('the embeddings client', () => {
  let server: http.Server;
  let answer: (res: http.ServerResponse) => void = (res) => res.end();
  let client: EmbeddingsClient;

  beforeAll(async () => {
    server = http.createServer((req, res) => {
      req.resume();
      req.on('end', () => answer(res));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    client = new EmbeddingsClient({ baseUrl: url, apiKey: 'k', model: 'm', timeoutMs: 200 }, 1024);
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  const json = (body: unknown) => (res: http.ServerResponse) =>
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  const reason = async () => {
    const error = await client.embed(['a', 'b']).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(EmbeddingsError);
    return (error as EmbeddingsError).reason;
  };

  it('returns one vector per input, in input order, with the model the endpoint names', async () => {
    answer = json({
      model: 'm-2',
      data: [
        { index: 1, embedding: [0, 1] },
        { index: 0, embedding: [1, 0] },
      ],
    });
    const embedded = await client.embed(['a', 'b']);
    expect(embedded.model).toBe('m-2');
    expect(embedded.dimension).toBe(2);
    expect(embedded.vectors.map((v) => [...v])).toEqual([
      [1, 0],
      [0, 1],
    ]);
  });

  it.each([
    ['not JSON', (res: http.ServerResponse) => res.end('{oops')],
    ['too few vectors', json({ data: [{ embedding: [1] }] })],
    ['a string in a vector', json({ data: [{ embedding: [1] }, { embedding: ['1'] }] })],
    ['two dimensions', json({ data: [{ embedding: [1] }, { embedding: [1, 2] }] })],
    ['an empty vector', json({ data: [{ embedding: [] }, { embedding: [] }] })],
    [
      'a repeated index',
      json({
        data: [
          { index: 0, embedding: [1] },
          { index: 0, embedding: [1] },
        ],
      }),
    ],
    ['a body over the bound', (res: http.ServerResponse) => res.end('x'.repeat(4096))],
  ])('refuses an answer with %s as malformed', async (_, body) => {
    answer = body;
    expect(await reason()).toBe('malformed');
  });

  it('classes a failed status, a timeout and an unreachable endpoint', async () => {
    answer = (res) => res.writeHead(503).end('{}');
    expect(await reason()).toBe('http_error');
    answer = () => undefined; // never answers
    expect(await reason()).toBe('timeout');
    const closed = new EmbeddingsClient({ baseUrl: 'http://127.0.0.1:1', apiKey: null, model: 'm', timeoutMs: 500 });
    const error = (await closed.embed(['a']).catch((e: unknown) => e)) as EmbeddingsError;
    expect(error.reason).toBe('unreachable');
  });
});
