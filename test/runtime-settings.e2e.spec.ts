import { OUT_OF_DOMAIN_CONFIDENCE } from '../src/runtime/retrieval/topic-index';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { EVENT_STORE, type EventStore } from '../src/event-store/event-store.port';
import { AgentsClient, createAccount } from './helpers/agents-fixture';
import { expectEnvelope, request, startTestApp, type TestApp } from './helpers/test-app';

/**
 * Runtime settings per agent (issue 35): the settings routes and their refusals, the operator's
 * model endpoints, and what a conversation does with the settings its deployment carries.
 */

/** An OpenAI-compatible server (the hosted model cannot exist here) answering with the model it was asked for. */
function modelServer() {
  const received: Array<{
    authorization?: string;
    body: { model: string; temperature?: number; max_tokens?: number };
  }> = [];
  const server = http.createServer((req, res) => {
    let raw = '';
    req.on('data', (c) => (raw += c));
    req.on('end', () => {
      const body = JSON.parse(raw);
      received.push({ authorization: req.headers.authorization, body });
      if (req.headers.authorization !== 'Bearer sk-acme-secret-1234')
        return void res.writeHead(401, { 'content-type': 'application/json' }).end('{"error":"bad key"}');
      res.writeHead(200, { 'content-type': 'application/json' }).end(
        JSON.stringify({
          choices: [{ index: 0, message: { role: 'assistant', content: `answered by ${body.model}` } }],
        }),
      );
    });
  });
  return {
    received,
    start: () =>
      new Promise<string>((resolve) =>
        server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`)),
      ),
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe('runtime settings per agent', () => {
  const model = modelServer();
  let modelUrl: string;
  let t: TestApp;
  let client: AgentsClient;
  let agentId: string;
  const op = () => ({ 'x-operator-token': t.operatorToken });
  const settingsOf = (branchId: string) => client.get(`/v1/agents/${agentId}/branches/${branchId}/settings`);
  const put = (branchId: string, body: unknown) =>
    client.call('PUT', `/v1/agents/${agentId}/branches/${branchId}/settings`, body);
  const say = async (message: string, clientEnv = 'sandbox') => {
    const start = await client.post(`/v1/agents/${agentId}/debug-chat`, { clientEnv });
    const r = await client.post(`/v1/agents/${agentId}/debug-chat/${start.body.conversationId}`, {
      clientEnv,
      message,
    });
    expect(r.status).toBe(200);
    return r.body;
  };

  beforeAll(async () => {
    modelUrl = await model.start();
    t = await startTestApp();
    client = new AgentsClient(t, await createAccount(t));
    agentId = (await client.createAgent('Dentist', 'Hello!')).agentId;
    await client.shipChange(agentId, 'kb', (branchId) =>
      client.addTopic(agentId, branchId, {
        name: 'Opening hours',
        content: 'We are open 9 to 5, Monday to Friday.',
        queries: ['what are your opening hours', 'when are you open'],
      }),
    );
  });
  afterAll(async () => {
    await t.close();
    await model.stop();
  });

  it('shows the defaults on a new agent, on main and on a branch', async () => {
    const r = await settingsOf('main');
    expect(r.status).toBe(200);
    expect(r.body).toEqual({
      settings: {
        confidence_threshold: OUT_OF_DOMAIN_CONFIDENCE,
        fallback_text: "I'm sorry, I can't help with that. Could you rephrase your question?",
        small_talk: true,
        model: null,
        environment_models: {},
        retrieval: { mode: 'lexical' },
        environment_retrieval: {},
        voice: { recording: false },
        privacy: { redact: [] },
        analysis: { fields: [] },
      },
      customized: [],
    });
  });

  it('sets fields on a branch, keeps the others, and null restores a default', async () => {
    const { branchId } = await client.createBranch(agentId, 'tune');
    const r = await put(branchId, { confidence_threshold: 0.9, fallback_text: 'Please call the front desk.' });
    expect(r.status).toBe(200);
    expect(r.body.settings).toMatchObject({ confidence_threshold: 0.9, fallback_text: 'Please call the front desk.' });
    expect(r.body.customized).toEqual(['confidence_threshold', 'fallback_text']);
    const after = await put(branchId, { confidence_threshold: null });
    expect(after.body.settings.confidence_threshold).toBe(OUT_OF_DOMAIN_CONFIDENCE);
    expect((await settingsOf(branchId)).body.customized).toEqual(['fallback_text']);
    await client.delete(`/v1/agents/${agentId}/branches/${branchId}`);
  });

  it.each([
    [{ confidence_threshold: 1.5 }, 'confidence_threshold'],
    [{ confidence_threshold: '0.5' }, 'confidence_threshold'],
    [{ fallback_text: '' }, 'fallback_text'],
    [{ small_talk: 'yes' }, 'small_talk'],
    [{ model: { provider: 'skynet', model: 'x' } }, 'provider'],
    [{ model: { provider: 'openai' } }, 'model'],
    [{ model: { provider: 'openai', model: 'm', temperature: 9 } }, 'temperature'],
    [{ model: { provider: 'openai', model: 'm', max_tokens: -1 } }, 'max_tokens'],
    [{ model: { provider: 'openai', model: 'm', api_key: 'sk-1' } }, 'api_key'],
    [{ model: { provider: 'openai', model: 'm', endpoint: 'nope' } }, 'endpoint'],
    [{ environment_models: { staging: { provider: 'embedded' } } }, 'staging'],
    [{ threshold: 0.5 }, 'threshold'],
    ['not an object', ''],
  ])('refuses %j with a 400 envelope', async (body, field) => {
    const { branchId } = await client.createBranch(agentId, `bad-${Math.random().toString(36).slice(2, 8)}`);
    const r = await put(branchId, body);
    expectEnvelope(r, 400);
    expect(r.body.error).toContain(field);
  });

  it('refuses main (422), an unknown branch (404), another account (403) and no key (401)', async () => {
    expectEnvelope(await put('main', { small_talk: false }), 422);
    expectEnvelope(await put('BRANCH-nosuch', { small_talk: false }), 404);
    expectEnvelope(await settingsOf('BRANCH-nosuch'), 404);
    const other = new AgentsClient(t, await createAccount(t, 'Other'));
    expectEnvelope(await other.get(`/v1/agents/${agentId}/branches/main/settings`), 403);
    const anonymous = await request(`${t.url}/v1/agents/${agentId}/branches/main/settings`);
    expectEnvelope(anonymous, 401);
  });

  it('falls back under a raised threshold, with its fallback text, and answers under a lowered one', async () => {
    const question = 'are you open on saturday mornings for a checkup';
    await client.shipChange(agentId, 'strict', (branchId) =>
      put(branchId, { confidence_threshold: 0.95, fallback_text: 'Please call the front desk.' }),
    );
    const strict = await say(question);
    expect(strict.response).toBe('Please call the front desk.');
    expect(strict.metadata.citedTopic).toBe('');
    expect(strict.metadata.retrievedTopics[0]).toBe('Opening hours');

    await client.shipChange(agentId, 'lenient', (branchId) => put(branchId, { confidence_threshold: 0.05 }));
    const lenient = await say(question);
    expect(lenient.response).toBe('We are open 9 to 5, Monday to Friday.');
    expect(lenient.metadata.citedTopic).toBe('Opening hours');
  });

  it('answers small talk no topic answers; a goodbye ends the conversation; off, it is out of domain', async () => {
    const hello = await say('hi there');
    expect(hello.response).toBe('Hello! How can I help you today?');
    expect(hello.metadata.citedTopic).toBe('');
    expect(hello.conversationEnded).toBe(false);
    const bye = await say('ok thanks bye');
    expect(bye.response).toBe('Goodbye, and thank you for getting in touch!');
    expect(bye.metadata.nodeTrace).toEqual(['start', 'retrieval', 'small_talk:goodbye']);
    expect(bye.conversationEnded).toBe(true);

    await client.shipChange(agentId, 'no-small-talk', (branchId) => put(branchId, { small_talk: false }));
    const plain = await say('ok thanks bye');
    expect(plain.response).not.toContain('Goodbye');
    expect(plain.conversationEnded).toBe(false);
    await client.shipChange(agentId, 'small-talk-back', (branchId) => put(branchId, { small_talk: null }));
  });

  it('keeps operator endpoints: api_key sealed in the event, never returned; names unique; 404 on delete of none', async () => {
    const add = (body: unknown) => request(`${t.url}/admin/v1/llm-endpoints`, { body, headers: op() });
    const created = await add({ name: 'acme', base_url: modelUrl, api_key: 'sk-acme-secret-1234' });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      name: 'acme',
      base_url: modelUrl,
      has_api_key: true,
      created_at: expect.any(String),
    });
    expectEnvelope(await add({ name: 'acme', base_url: modelUrl }), 409, 'LLM_ENDPOINT_EXISTS');
    expectEnvelope(await add({ name: 'Bad Name', base_url: modelUrl }), 400);
    expectEnvelope(await add({ name: 'x', base_url: 'ftp://example.com' }), 400);
    expectEnvelope(await add({ name: 'x', base_url: 'http://user:pw@example.com' }), 400);
    expectEnvelope(await request(`${t.url}/admin/v1/llm-endpoints`), 401);
    const list = await request(`${t.url}/admin/v1/llm-endpoints`, { headers: op() });
    expect(list.body.endpoints.map((e: { name: string }) => e.name)).toEqual(['acme']);
    expect(JSON.stringify(list.body)).not.toContain('sk-acme');
    const stored = await t.app.get<EventStore>(EVENT_STORE).readStream('llm-endpoints');
    expect(stored.map((e) => e.type)).toEqual(['LlmEndpointAdded']);
    expect(JSON.stringify(stored.map((e) => e.data))).not.toContain('sk-acme-secret-1234');
    const none = await request(`${t.url}/admin/v1/llm-endpoints/nope`, { method: 'DELETE', headers: op() });
    expectEnvelope(none, 404, 'LLM_ENDPOINT_NOT_FOUND');
  });

  it("runs each environment's model through the operator's endpoint, with its key", async () => {
    await client.shipChange(agentId, 'models', async (branchId) =>
      expect(
        (
          await put(branchId, {
            model: { provider: 'openai_compatible', model: 'dentist-small', endpoint: 'acme', temperature: 0.2 },
            environment_models: {
              live: { provider: 'openai', model: 'dentist-large', endpoint: 'acme', max_tokens: 300 },
            },
          })
        ).status,
      ).toBe(200),
    );
    const sandbox = (await client.active(agentId)).sandbox!;
    await client.promote(agentId, sandbox.id, 'live');

    const inSandbox = await say('when are you open');
    expect(inSandbox.response).toBe('answered by dentist-small');
    expect(model.received.at(-1)).toMatchObject({
      authorization: 'Bearer sk-acme-secret-1234',
      body: { model: 'dentist-small', temperature: 0.2 },
    });
    const inLive = await say('when are you open', 'live');
    expect(inLive.response).toBe('answered by dentist-large');
    expect(model.received.at(-1)!.body).toMatchObject({ model: 'dentist-large', max_tokens: 300 });
    expect(inLive.metadata.llmRequests).toEqual([expect.objectContaining({ model: 'dentist-large', status: 'ok' })]);
    expect(JSON.stringify(inLive)).not.toContain('sk-acme');

    // the endpoint gone, the turn records a failed call and falls back to the embedded answer
    const gone = await request(`${t.url}/admin/v1/llm-endpoints/acme`, { method: 'DELETE', headers: op() });
    expect(gone.status).toBe(204);
    const fallback = await say('when are you open');
    expect(fallback.response).toBe('We are open 9 to 5, Monday to Friday.');
    expect(fallback.metadata.llmRequests).toEqual([
      expect.objectContaining({ status: 'error', error: 'no model endpoint is named acme' }),
    ]);
  });
});
