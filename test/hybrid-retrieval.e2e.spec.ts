import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { EVENT_STORE, type EventStore } from '../src/event-store/event-store.port';
import { AgentsClient, createAccount, expectOk } from './helpers/agents-fixture';
import { eventually } from './helpers/conversations-fixture';
import type { Json } from './helpers/json';
import { expectEnvelope, request, startTestApp, type TestApp } from './helpers/test-app';
import { EmbeddingsServer } from './support/embeddings-server';
import { patient } from './support/patience';

/**
 * Hybrid retrieval end to end (docs/retrieval.md): a real app on loopback, its agent's topics
 * embedded through an operator's embeddings endpoint, which is a local server speaking the
 * OpenAI protocol with deterministic vectors (test/support/embeddings-server.ts, standing in for a
 * hosted model). Every wait is a bounded poll.
 */

const TOPICS = [
  {
    name: 'Lost deliveries',
    content: 'We trace it with the courier and send a replacement within 2 days.',
    queries: ['where is my shipment'],
  },
  { name: 'Opening hours', content: 'We are open 9 to 5, Monday to Friday.', queries: ['when are you open'] },
  { name: 'Refunds', content: 'Refunds reach your card within 5 working days.', queries: ['can I get a refund'] },
];
/** Shares no word with "Lost deliveries" (nor does the thesaurus link them); the stub's synonyms do. */
const PARAPHRASE = 'my parcel never turned up';
/** Calibrated on the stub's hashed vectors: the paraphrase is 0.42 from its topic, off-topic questions below 0.35. */
const MIN_SIMILARITY = 0.4;

describe('hybrid retrieval with an embeddings endpoint', () => {
  let stub: EmbeddingsServer;
  let t: TestApp;
  let dataDir: string;
  let api: AgentsClient;
  let lexicalAgent: string;
  let hybridAgent: string;

  const op = () => ({ 'x-operator-token': t.operatorToken });
  const addEndpoint = (body: Json) =>
    request(`${t.url}/admin/v1/embedding-endpoints`, { method: 'POST', body, headers: op() });
  const settings = (agentId: string, branchId: string, body: Json) =>
    api.call('PUT', `/v1/agents/${agentId}/branches/${branchId}/settings`, body);

  /** One debug-chat turn in a new conversation: the answer and its metadata. */
  async function ask(agentId: string, message: string) {
    const chat = await api.post(`/v1/agents/${agentId}/debug-chat`, { clientEnv: 'sandbox' });
    expectOk(chat, 201);
    const turn = await api.post(`/v1/agents/${agentId}/debug-chat/${chat.body.conversationId}`, {
      clientEnv: 'sandbox',
      message,
    });
    expectOk(turn, 200);
    return {
      conversationId: chat.body.conversationId as string,
      response: turn.body.response as string,
      cited: turn.body.metadata.citedTopic as string,
      retrieval: turn.body.metadata.retrieval as { mode: string; fallback_reason?: string } | undefined,
    };
  }

  async function startApp() {
    t = await startTestApp(
      { RETRIEVAL_EMBEDDING_TIMEOUT_MS: '300', OPERATOR_TOKEN: 'hybrid-operator-token-0123' },
      dataDir,
    );
    // after a restart, the same account and key (they are in the log)
    api = new AgentsClient(
      t,
      api ? api.account : await createAccount(t, 'Hybrid Co', ['agents', 'keys', 'conversations']),
    );
  }

  async function agentWith(name: string, retrieval: Json | null) {
    const agentId = (await api.createAgent(name, 'Hello!')).agentId as string;
    await api.shipChange(agentId, 'kb', async (branchId) => {
      for (const topic of TOPICS) await api.addTopic(agentId, branchId, topic);
      if (retrieval) expectOk(await settings(agentId, branchId, { retrieval }), 200);
    });
    return agentId;
  }

  beforeAll(async () => {
    stub = await EmbeddingsServer.start();
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-hybrid-'));
    await startApp();
  }, patient(60_000));

  afterAll(async () => {
    await t?.close();
    await stub?.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('keeps embeddings endpoints like model endpoints: operator only, key sealed and never shown', async () => {
    const created = await addEndpoint({
      name: 'stub-embed',
      base_url: stub.url,
      api_key: 'emb-secret-9876',
      model: 'toy-embed',
    });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      name: 'stub-embed',
      base_url: stub.url,
      model: 'toy-embed',
      has_api_key: true,
      created_at: expect.any(String),
    });
    expectEnvelope(
      await addEndpoint({ name: 'stub-embed', base_url: stub.url, model: 'x' }),
      409,
      'EMBEDDING_ENDPOINT_EXISTS',
    );
    expectEnvelope(await addEndpoint({ name: 'no-model', base_url: stub.url }), 400, 'VALIDATION_ERROR');
    expectEnvelope(await addEndpoint({ name: 'x', base_url: 'ftp://example.com', model: 'm' }), 400);
    expectEnvelope(await request(`${t.url}/admin/v1/embedding-endpoints`), 401);
    const list = await request(`${t.url}/admin/v1/embedding-endpoints`, { headers: op() });
    expect(list.body.endpoints.map((e: { name: string }) => e.name)).toEqual(['stub-embed']);
    expect(JSON.stringify(list.body)).not.toContain('emb-secret');
    const stored = await t.app.get<EventStore>(EVENT_STORE).readStream('embedding-endpoints');
    expect(stored.map((e) => e.type)).toEqual(['EmbeddingEndpointAdded']);
    expect(JSON.stringify(stored.map((e) => e.data))).not.toContain('emb-secret-9876');
    const none = await request(`${t.url}/admin/v1/embedding-endpoints/nope`, { method: 'DELETE', headers: op() });
    expectEnvelope(none, 404, 'EMBEDDING_ENDPOINT_NOT_FOUND');
  });

  it('validates the retrieval setting with 400 envelopes naming the field', async () => {
    const agentId = (await api.createAgent('Settings check', 'Hi')).agentId as string;
    const branchId = (await api.createBranch(agentId, 'retrieval')).branchId as string;
    const refused = async (body: Json, field: string) => {
      const r = await settings(agentId, branchId, body);
      expectEnvelope(r, 400, 'VALIDATION_ERROR');
      expect(r.body.error_message).toContain(field);
    };
    await refused({ retrieval: { mode: 'hybrid' } }, 'retrieval.endpoint');
    await refused({ retrieval: { mode: 'semantic', endpoint: 'stub-embed' } }, 'mode');
    await refused({ retrieval: { mode: 'hybrid', endpoint: 'nowhere' } }, 'no embeddings endpoint is named nowhere');
    await refused({ retrieval: { mode: 'hybrid', endpoint: 'stub-embed', timeout_ms: 5 } }, 'timeout_ms');
    await refused({ environment_retrieval: { live: { mode: 'hybrid' } } }, 'environment_retrieval.live.endpoint');
    const ok = await settings(agentId, branchId, {
      retrieval: { mode: 'lexical' },
      environment_retrieval: { live: { mode: 'hybrid', endpoint: 'stub-embed', timeout_ms: 800 } },
    });
    expectOk(ok, 200);
    expect(ok.body.settings.environment_retrieval).toEqual({
      live: { mode: 'hybrid', endpoint: 'stub-embed', timeout_ms: 800 },
    });
    expect(ok.body.customized).toEqual(['retrieval', 'environment_retrieval']);
  });

  it('lexical retrieval misses a paraphrase that shares no word with its topic', async () => {
    lexicalAgent = await agentWith('Lexical shop', null);
    const turn = await ask(lexicalAgent, PARAPHRASE);
    expect(turn.cited).toBe('');
    expect(turn.retrieval).toBeUndefined();
  });

  it('embeds the topics when the deployment is made, answering lexically until the vectors are stored', async () => {
    // the topics' batch takes a while; the deployment serves meanwhile
    stub.behaviour = { kind: 'answer', delayMs: 1500 };
    hybridAgent = await agentWith('Hybrid shop', {
      mode: 'hybrid',
      endpoint: 'stub-embed',
      min_similarity: MIN_SIMILARITY,
    });
    const early = await ask(hybridAgent, 'when are you open');
    expect(early).toMatchObject({
      cited: 'Opening hours',
      retrieval: { mode: 'lexical', fallback_reason: 'vectors_pending' },
    });
    stub.behaviour = { kind: 'answer' };
    const turn = await eventually(
      async () => {
        const r = await ask(hybridAgent, PARAPHRASE);
        expect(r.retrieval).toEqual({ mode: 'hybrid' });
        return r;
      },
      10_000,
      100,
    );
    expect(turn.cited).toBe('Lost deliveries');
    expect(turn.response).toBe(TOPICS[0].content);
    // the Conversations API shows it in the turn's metadata too
    const access = await api.call('PUT', `/v1/accounts/${api.account.accountId}/agents/${hybridAgent}/data-access`, {
      response_metrics: [],
      show_transcripts: true,
    });
    expectOk(access, 200);
    const read = await eventually(async () => {
      const r = await api.get(
        `/v3/${api.account.accountId}/${hybridAgent}/conversations/${turn.conversationId}?include_turn_metadata=true`,
      );
      expectOk(r, 200);
      return r;
    });
    expect(read.body.turns.at(-1).metadata.retrieval).toEqual({ mode: 'hybrid' });
    const topicBatch = stub.requests.find((r) => r.input.length === TOPICS.length);
    expect(topicBatch).toMatchObject({ model: 'toy-embed', authorization: 'Bearer emb-secret-9876' });
    expect(topicBatch!.input[0]).toContain('Lost deliveries');
  });

  it('keeps the out-of-domain threshold: a question near no topic still falls back', async () => {
    const turn = await ask(hybridAgent, 'what is the weather on mars');
    expect(turn).toMatchObject({ cited: '', retrieval: { mode: 'hybrid' } });
    expect(turn.response).toContain("I'm sorry");
    // and what lexical retrieval finds, hybrid still finds
    expect(await ask(hybridAgent, 'can I get a refund')).toMatchObject({
      cited: 'Refunds',
      retrieval: { mode: 'hybrid' },
    });
  });

  it.each([
    ['timeout', { kind: 'hang' } as const],
    ['http_error', { kind: 'status', status: 500 } as const],
    ['malformed', { kind: 'garbage', body: 'not json at all' } as const],
    ['malformed', { kind: 'garbage', body: '{"data":[{"embedding":["a","b"]}]}' } as const],
    ['malformed', { kind: 'garbage', body: '{"data":[]}' } as const],
  ])('falls back to lexical on %s, and says so', async (reason, behaviour) => {
    stub.behaviour = behaviour;
    try {
      const started = Date.now();
      const turn = await ask(hybridAgent, 'when are you open');
      expect(turn).toMatchObject({ cited: 'Opening hours', retrieval: { mode: 'lexical', fallback_reason: reason } });
      expect(Date.now() - started).toBeLessThan(patient(3000));
      // the paraphrase needs the vectors: lexically it is out of domain
      expect((await ask(hybridAgent, PARAPHRASE)).cited).toBe('');
    } finally {
      stub.behaviour = { kind: 'answer' };
    }
  });

  it(
    'survives a restart: the stored vectors serve at once, no topic embedded again',
    async () => {
      await t.close();
      const before = stub.requests.length;
      await startApp();
      const turn = await ask(hybridAgent, PARAPHRASE);
      expect(turn).toMatchObject({ cited: 'Lost deliveries', retrieval: { mode: 'hybrid' } });
      expect(stub.requests.slice(before).map((r) => r.input)).toEqual([[PARAPHRASE]]);
    },
    patient(60_000),
  );

  it('never mixes vectors of another model or dimension: falls back, then embeds the topics again', async () => {
    stub.behaviour = { kind: 'answer', model: 'toy-embed-v2' };
    expect(await ask(hybridAgent, 'when are you open')).toMatchObject({
      cited: 'Opening hours',
      retrieval: { mode: 'lexical', fallback_reason: 'model_mismatch' },
    });
    // made again behind the turns, with the model the endpoint answers with now
    await eventually(
      async () => expect((await ask(hybridAgent, PARAPHRASE)).retrieval).toEqual({ mode: 'hybrid' }),
      10_000,
      200,
    );

    stub.behaviour = { kind: 'answer', model: 'toy-embed-v2', dimension: 128 };
    expect(await ask(hybridAgent, PARAPHRASE)).toMatchObject({
      cited: '',
      retrieval: { mode: 'lexical', fallback_reason: 'dimension_mismatch' },
    });
    const turn = await eventually(
      async () => {
        const r = await ask(hybridAgent, PARAPHRASE);
        expect(r.retrieval).toEqual({ mode: 'hybrid' });
        return r;
      },
      10_000,
      200,
    );
    expect(turn.cited).toBe('Lost deliveries');
    stub.behaviour = { kind: 'answer' };
  });

  it('answers lexically once the endpoint is deleted, and refuses it in settings', async () => {
    const deleted = await request(`${t.url}/admin/v1/embedding-endpoints/stub-embed`, {
      method: 'DELETE',
      headers: op(),
    });
    expect(deleted.status).toBe(204);
    expect(await ask(hybridAgent, 'when are you open')).toMatchObject({
      cited: 'Opening hours',
      retrieval: { mode: 'lexical', fallback_reason: 'endpoint_missing' },
    });
    const branchId = (await api.createBranch(hybridAgent, 'again')).branchId as string;
    const r = await settings(hybridAgent, branchId, { retrieval: { mode: 'hybrid', endpoint: 'stub-embed' } });
    expectEnvelope(r, 400, 'VALIDATION_ERROR');
  });
});
