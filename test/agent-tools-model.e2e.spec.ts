import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { AgentsClient, createAccount, expectOk } from './helpers/agents-fixture';
import { startTestApp, type TestApp } from './helpers/test-app';

/**
 * A model's tool call of an agent tool (contract §20): the model (a local OpenAI-compatible server,
 * the hosted one being a boundary that cannot exist here) is offered the tool with its JSON
 * Schema, calls it, gets its answer back in one round trip and answers from it. The tool's
 * receiver is plain http on loopback (WEBHOOK_ALLOW_HTTP=1); HTTPS is proven in agent-tools.e2e.spec.ts.
 */
type Message = { role: string; content: string; tool_call_id?: string; tool_calls?: unknown[] };

function serve(handler: (path: string, body: string, res: http.ServerResponse) => void) {
  const server = http.createServer((req, res) => {
    let raw = '';
    req.on('data', (c) => (raw += c));
    req.on('end', () => handler(req.url ?? '', raw, res));
  });
  return {
    start: () =>
      new Promise<string>((resolve) =>
        server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`)),
      ),
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe('agent tools as model tool calls', () => {
  const modelRequests: Array<{
    messages: Message[];
    tools?: Array<{ function: { name: string; parameters: unknown } }>;
  }> = [];
  const toolBodies: string[] = [];
  const model = serve((_path, raw, res) => {
    const body = JSON.parse(raw);
    modelRequests.push(body);
    const last: Message = body.messages.at(-1);
    const message =
      last.role === 'tool'
        ? { role: 'assistant', content: `Your order ships ${JSON.parse(last.content).eta}.` }
        : {
            role: 'assistant',
            content: '',
            tool_calls: [
              { id: 'call_1', type: 'function', function: { name: 'order_status', arguments: '{"order":"A-9"}' } },
            ],
          };
    res
      .writeHead(200, { 'content-type': 'application/json' })
      .end(JSON.stringify({ choices: [{ index: 0, message }] }));
  });
  const tool = serve((_path, raw, res) => {
    toolBodies.push(raw);
    res.writeHead(200, { 'content-type': 'application/json' }).end('{"eta":"on Monday"}');
  });
  let t: TestApp;
  let client: AgentsClient;
  let agentId: string;

  beforeAll(async () => {
    const [modelUrl, toolUrl] = await Promise.all([model.start(), tool.start()]);
    t = await startTestApp({ LLM_BASE_URL: modelUrl, LLM_MODEL: 'test-model', WEBHOOK_ALLOW_HTTP: '1' });
    client = new AgentsClient(t, await createAccount(t));
    agentId = (await client.createAgent('Shop', 'Hello!')).agentId;
    await client.shipChange(agentId, 'tools', async (branchId) => {
      expectOk(
        await client.post(`/v1/agents/${agentId}/branches/${branchId}/tools`, {
          name: 'order_status',
          description: 'Looks an order up',
          url: `${toolUrl}/status`,
          parameters: { type: 'object', properties: { order: { type: 'string' } }, required: ['order'] },
        }),
        201,
      );
      await client.addTopic(agentId, branchId, { name: 'Orders', queries: ['where is my order'] });
    });
  });
  afterAll(async () => {
    await t?.close();
    await Promise.all([model.stop(), tool.stop()]);
  });

  it('offers the tool, calls it, and answers from its result in one round trip', async () => {
    const chat = (p: string, body: unknown) => client.post(`/v1/agents/${agentId}/debug-chat${p}`, body);
    const { conversationId } = (await chat('', { clientEnv: 'sandbox' })).body;
    const r = await chat(`/${conversationId}`, { clientEnv: 'sandbox', message: 'where is my order A-9?' });
    expect(r.status).toBe(200);
    expect(r.body.response).toBe('Your order ships on Monday.');
    expect(modelRequests).toHaveLength(2);
    const offered = modelRequests[0].tools!.find((x) => x.function.name === 'order_status')!;
    expect(offered.function.parameters).toEqual(expect.objectContaining({ required: ['order'] }));
    expect(JSON.parse(toolBodies[0])).toEqual({ order: 'A-9' });
    expect(modelRequests[1].messages.at(-1)).toEqual({
      role: 'tool',
      tool_call_id: 'call_1',
      content: '{"eta":"on Monday"}',
    });
    expect(r.body.metadata.state.functions.order_status).toEqual({ eta: 'on Monday' });
    expect(r.body.metadata.llmRequests).toHaveLength(2);
  });
});
