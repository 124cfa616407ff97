import http from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  buildAgent,
  ConversationsReader,
  converse,
  eventually,
  issueKey,
  platformNow,
  setDataAccess,
  startConversationsFixture,
  type ConversationsFixture,
} from './helpers/conversations-fixture';

/**
 * EMBEDDINGS_BASE_URL: semantic search ranked by embedding similarity. The hosted model is a
 * boundary this project cannot run: a small server here speaks the OpenAI embeddings protocol with
 * a toy model where words of one concept share a dimension.
 */
const CONCEPTS: string[][] = [
  ['refund', 'money', 'reimbursed', 'reimbursement', 'repaid'],
  ['flight', 'plane', 'airport', 'boarding'],
  ['password', 'login', 'locked', 'credentials'],
];

function embed(text: string): number[] {
  const words = text.toLowerCase().split(/[^a-z]+/);
  return [...CONCEPTS.map((words_) => words.filter((w) => words_.includes(w)).length), 0.01];
}

describe('semantic search with an embeddings endpoint', () => {
  let server: http.Server;
  let failing = false;
  const requests: Array<{ model: string; input: string[]; authorization?: string }> = [];
  let f: ConversationsFixture;
  let reader: ConversationsReader;
  let refundConversation: string;
  let flightConversation: string;

  beforeAll(async () => {
    server = http.createServer((req, res) => {
      let body = '';
      req.on('data', (chunk) => (body += chunk));
      req.on('end', () => {
        const parsed = JSON.parse(body) as { model: string; input: string[] };
        requests.push({ ...parsed, authorization: req.headers.authorization });
        if (failing || req.url !== '/v1/embeddings') {
          res.writeHead(failing ? 500 : 404).end('{}');
          return;
        }
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(
          JSON.stringify({
            object: 'list',
            data: parsed.input.map((text, index) => ({ object: 'embedding', index, embedding: embed(text) })),
          }),
        );
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    f = await startConversationsFixture('Embeddings Co', {
      EMBEDDINGS_BASE_URL: url,
      EMBEDDINGS_API_KEY: 'emb-secret',
      EMBEDDINGS_MODEL: 'toy-embed',
    });
    const agentId = await buildAgent(f, 'Helpdesk', 'Hello', [
      { name: 'Refunds', content: 'Refunds take five days.', queries: ['I want a refund'] },
      {
        name: 'Flights',
        content: 'Boarding closes 30 minutes before departure.',
        queries: ['when does boarding close'],
      },
    ]);
    await setDataAccess(f, agentId, { response_metrics: [], show_transcripts: true });
    refundConversation = (await converse(f, agentId, ['I want a refund'])).id;
    flightConversation = (await converse(f, agentId, ['when does boarding close'])).id;
    reader = new ConversationsReader(f, await issueKey(f, { permissions: ['conversations'] }), agentId);
    await eventually(async () => expect(await reader.ids({ client_env: 'sandbox' })).toHaveLength(2));
  }, 180_000);

  afterAll(async () => {
    await f?.close();
    await new Promise((resolve) => server.close(resolve));
  });

  async function search(query: string) {
    const now = await platformNow(f.t);
    const range = {
      start_time: new Date(now - 86_400_000).toISOString(),
      end_time: new Date(now + 60_000).toISOString(),
    };
    return reader.list({ client_env: 'sandbox', query_type: 'semantic', query, ...range });
  }

  it('finds a conversation that means the same in other words, first', async () => {
    // "money back" shares no word, stem or near spelling with "I want a refund"
    const r = await search('I was never reimbursed my money');
    expect(r.status).toBe(200);
    expect((r.body.conversations as Array<{ id: string }>)[0].id).toBe(refundConversation);
    const other = await search('my plane leaves soon');
    expect((other.body.conversations as Array<{ id: string }>)[0].id).toBe(flightConversation);
  });

  it('calls the endpoint with the configured model and key', () => {
    expect(requests.length).toBeGreaterThan(0);
    expect(requests.every((r) => r.model === 'toy-embed' && r.authorization === 'Bearer emb-secret')).toBe(true);
  });

  it('still answers, ranked the embedded way, when the endpoint fails', async () => {
    failing = true;
    try {
      const r = await search('refunds');
      expect(r.status).toBe(200);
      expect((r.body.conversations as Array<{ id: string }>).map((c) => c.id)).toContain(refundConversation);
    } finally {
      failing = false;
    }
  });
});
