import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { AgentsClient, createAccount } from './helpers/agents-fixture';
import { startTestApp, type TestApp } from './helpers/test-app';
import { patient } from './support/patience';

/**
 * The hosted model is a boundary that cannot exist here: this server speaks the OpenAI-compatible
 * chat completions protocol, records what it receives, and answers as the test decides.
 */
interface Received {
  authorization: string | undefined;
  body: {
    model: string;
    messages: Array<{ role: string; content: string }>;
    tools?: Array<{ function: { name: string } }>;
  };
}

function modelServer() {
  const received: Received[] = [];
  let mode: 'answer' | 'tool' | 'fail' | 'slow' = 'answer';
  const server = http.createServer((req, res) => {
    let raw = '';
    req.on('data', (c) => (raw += c));
    req.on('end', () => {
      if (req.url !== '/v1/chat/completions' || req.method !== 'POST') {
        res.writeHead(404).end();
        return;
      }
      received.push({ authorization: req.headers.authorization, body: JSON.parse(raw) });
      if (mode === 'fail')
        return void res.writeHead(500, { 'content-type': 'application/json' }).end('{"error":"boom"}');
      if (mode === 'slow') return void setTimeout(() => res.writeHead(200).end('{}'), patient(1500));
      const message =
        mode === 'tool'
          ? {
              role: 'assistant',
              content: 'Passing you to billing.',
              tool_calls: [
                {
                  id: 'c1',
                  type: 'function',
                  function: { name: 'set_state', arguments: '{"key":"vip","value":"yes"}' },
                },
              ],
            }
          : { role: 'assistant', content: 'From the model: refunds take 5 days.' };
      res
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ choices: [{ index: 0, message }], usage: { prompt_tokens: 42, completion_tokens: 7 } }));
    });
  });
  return {
    received,
    setMode: (m: typeof mode) => (mode = m),
    start: () =>
      new Promise<string>((resolve) =>
        server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`)),
      ),
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe('runtime with an OpenAI-compatible model', () => {
  const model = modelServer();
  let t: TestApp;
  let client: AgentsClient;
  let agentId: string;
  const chat = (path: string, body: unknown) => client.post(`/v1/agents/${agentId}/debug-chat${path}`, body);

  beforeAll(async () => {
    const url = await model.start();
    t = await startTestApp({
      LLM_BASE_URL: url,
      LLM_API_KEY: 'secret-model-key',
      LLM_MODEL: 'test-model',
      LLM_TIMEOUT_MS: String(patient(300)),
    });
    client = new AgentsClient(t, await createAccount(t));
    agentId = (await client.createAgent('Shop', 'Hello!')).agentId;
    await client.shipChange(agentId, 'kb', async (branchId) => {
      await client.setBehavior(agentId, branchId, 'You are the shop assistant. Be brief.');
      await client.addTopic(agentId, branchId, {
        name: 'Refunds',
        content: 'Refunds take 5 days.',
        queries: ['can I get a refund'],
      });
      await client.addTopic(agentId, branchId, {
        name: 'Delivery',
        content: 'Delivery takes 2 days.',
        queries: ['when does my parcel arrive'],
      });
    });
  });
  afterAll(async () => {
    await t.close();
    await model.stop();
  });

  it('answers with the model, behavior as the system prompt and the retrieved topics as context', async () => {
    model.setMode('answer');
    const { conversationId } = (await chat('', { clientEnv: 'sandbox' })).body;
    const r = await chat(`/${conversationId}`, { clientEnv: 'sandbox', message: 'can I get a refund?' });
    expect(r.body.response).toBe('From the model: refunds take 5 days.');
    const sent = model.received.at(-1)!;
    expect(sent.authorization).toBe('Bearer secret-model-key');
    expect(sent.body.model).toBe('test-model');
    expect(sent.body.messages[0]).toEqual({ role: 'system', content: 'You are the shop assistant. Be brief.' });
    expect(sent.body.messages[1].content).toContain('Refunds take 5 days.');
    expect(sent.body.messages.at(-1)).toEqual({ role: 'user', content: 'can I get a refund?' });
    expect(sent.body.tools!.map((tool) => tool.function.name)).toContain('handoff');
    expect(r.body.metadata.llmRequests).toEqual([
      expect.objectContaining({ model: 'test-model', promptTokens: 42, completionTokens: 7, status: 'ok' }),
    ]);
    expect(JSON.stringify(r.body)).not.toContain('secret-model-key');
  });

  it('runs the actions the model calls as tools', async () => {
    model.setMode('tool');
    const { conversationId } = (await chat('', { clientEnv: 'sandbox' })).body;
    const r = await chat(`/${conversationId}`, { clientEnv: 'sandbox', message: 'refund please' });
    expect(r.body.response).toBe('Passing you to billing.');
    expect(r.body.metadata.state.vip).toBe('yes');
    expect(r.body.metadata.functionEvents).toEqual([expect.objectContaining({ name: 'set_state', status: 'ok' })]);
  });

  it.each(['fail', 'slow'] as const)(
    'falls back to the embedded answer when the model %s, and counts an API error',
    async (mode) => {
      model.setMode(mode);
      const { conversationId } = (await chat('', { clientEnv: 'sandbox' })).body;
      const r = await chat(`/${conversationId}`, { clientEnv: 'sandbox', message: 'can I get a refund?' });
      expect(r.status).toBe(200);
      expect(r.body.response).toBe('Refunds take 5 days.');
      expect(r.body.metadata.llmRequests).toEqual([
        expect.objectContaining({ status: mode === 'fail' ? 'error' : 'timeout' }),
      ]);
    },
  );
});
