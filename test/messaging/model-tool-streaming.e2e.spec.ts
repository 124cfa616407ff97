import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { EVENT_STORE, type EventStore } from '../../src/event-store/event-store.port';
import { expectOk } from '../helpers/agents-fixture';
import { operatorKey } from '../helpers/keys-fixtures';
import { request } from '../helpers/test-app';
import { patient } from '../support/patience';
import { connect, joined, session, startMessagingFixture, token, type MessagingFixture } from './messaging-fixture';

const PIECES = ['Your order ', 'ships ', 'on ', 'Monday.'];
const PREAMBLE = 'Let me check.';
const CHUNK = 'EVENT_TYPE_SERVICE_AGENT_MESSAGE_CHUNK';
/** how long the tool takes to answer: the final answer's first token cannot come sooner */
const TOOL_MS = 400;

type Message = { role: string; content: string };

function serve(handler: (body: string, res: http.ServerResponse) => void) {
  const server = http.createServer((req, res) => {
    let raw = '';
    req.on('data', (c) => (raw += c));
    req.on('end', () => handler(raw, res));
  });
  return {
    start: () =>
      new Promise<string>((resolve) =>
        server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`)),
      ),
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/**
 * An OpenAI-compatible server (the hosted model cannot exist here) that streams server-sent
 * events: asked a question, it calls the `order_status` tool (its arguments in two pieces, after
 * "Let me check." when the question says "please"); given the tool's answer, it writes the final
 * answer one piece at a time with a pause between them, counting what it has sent.
 */
function toolCallingModel(gapMs: number) {
  const state = { sent: 0, requests: [] as Array<{ stream?: boolean; messages: Message[] }> };
  const model = serve((raw, res) => {
    const body = JSON.parse(raw) as { stream?: boolean; messages: Message[] };
    state.requests.push(body);
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    const send = (delta: unknown) => res.write(`data: ${JSON.stringify({ choices: [{ index: 0, delta }] })}\n\n`);
    const done = () => {
      res.write(`data: ${JSON.stringify({ choices: [], usage: { prompt_tokens: 40, completion_tokens: 4 } })}\n\n`);
      res.end('data: [DONE]\n\n');
    };
    const last = body.messages.at(-1)!;
    if (last.role !== 'tool') {
      if (last.content.includes('please')) send({ content: PREAMBLE });
      send({ tool_calls: [{ index: 0, id: 'call_1', function: { name: 'order_status', arguments: '{"ord' } }] });
      send({ tool_calls: [{ index: 0, function: { arguments: 'er":"A-9"}' } }] });
      return done();
    }
    state.sent = 0;
    let i = 0;
    const next = () => {
      if (i === PIECES.length) return done();
      send({ content: PIECES[i] });
      state.sent = ++i;
      setTimeout(next, gapMs);
    };
    next();
  });
  return { state, ...model };
}

describe('the answer after a model tool call: streamed to web chat, whole to the Chat API', () => {
  const model = toolCallingModel(patient(300));
  const toolBodies: string[] = [];
  const tool = serve((raw, res) => {
    toolBodies.push(raw);
    setTimeout(() => res.writeHead(200, { 'content-type': 'application/json' }).end('{"eta":"Monday"}'), TOOL_MS);
  });
  let f: MessagingFixture;
  let bearer: string;

  beforeAll(async () => {
    const [modelUrl, toolUrl] = await Promise.all([model.start(), tool.start()]);
    f = await startMessagingFixture({
      LLM_BASE_URL: modelUrl,
      LLM_MODEL: 'tool-model',
      LLM_TIMEOUT_MS: String(patient(20_000)),
      WEBHOOK_ALLOW_HTTP: '1',
    });
    await f.api.shipChange(f.agentId, 'tools', async (branchId) =>
      expectOk(
        await f.api.post(`/v1/agents/${f.agentId}/branches/${branchId}/tools`, {
          name: 'order_status',
          description: 'Looks an order up',
          url: `${toolUrl}/status`,
          parameters: { type: 'object', properties: { order: { type: 'string' } }, required: ['order'] },
          timeout_ms: 5000,
        }),
        201,
      ),
    );
    bearer = await token(f);
  });
  afterAll(async () => {
    await f?.close();
    await Promise.all([model.stop(), tool.stop()]);
  });

  const conversationEvents = async (client: { events: Array<{ type: string; payload: Record<string, unknown> }> }) => {
    const joinedEvent = client.events.find((e) => e.type === 'EVENT_TYPE_SERVICE_AGENT_JOINED')!;
    const id = joinedEvent.payload.conversation_id as string;
    return f.t.app.get<EventStore>(EVENT_STORE).readStream(`conversation-${id}`);
  };

  it('sends the final answer’s first chunk before the model finished it, and records the tool call and the turn', async () => {
    const id = await session(f, bearer, { streaming_enabled: true });
    const { client } = await connect(f, id, bearer);
    await joined(client);
    client.send({ type: 'EVENT_TYPE_USER_MESSAGE', payload: { text: 'where is my order A-9?' } });

    const first = await client.next(CHUNK, () => true, 10_000);
    // the tool was called and the model is still writing its final answer when the first words arrive
    expect(toolBodies).toHaveLength(1);
    expect(JSON.parse(toolBodies[0])).toEqual({ order: 'A-9' });
    expect(model.state.sent).toBeLessThan(PIECES.length);
    expect(first.payload).toMatchObject({ text: PIECES[0], chunk_index: 0, is_complete: false });
    expect(model.state.requests).toHaveLength(2);
    expect(model.state.requests[1].stream).toBe(true);
    expect(model.state.requests[1].messages.at(-1)).toMatchObject({ role: 'tool', content: '{"eta":"Monday"}' });

    const message = await client.next('EVENT_TYPE_SERVICE_AGENT_MESSAGE', () => true, 20_000);
    expect(message.payload.text).toBe(PIECES.join(''));
    const chunks = client.events.filter((e) => e.type === CHUNK);
    expect(chunks.map((c) => c.payload.text).join('')).toBe(PIECES.join(''));
    expect(chunks.map((c) => c.payload.chunk_index)).toEqual(chunks.map((_, i) => i));
    expect(chunks.at(-1)!.payload.is_complete).toBe(true);

    const events = await conversationEvents(client);
    const called = events.filter((e) => e.type === 'ToolCalled').map((e) => e.data as Record<string, unknown>);
    expect(called).toEqual([expect.objectContaining({ tool: 'order_status', status: 'ok', httpStatus: 200 })]);
    const turn = events.filter((e) => e.type === 'TurnRecorded').at(-1)!.data as unknown as {
      agentResponse: string;
      functionEvents: Array<Record<string, unknown>>;
      llmRequests: Array<Record<string, unknown>>;
      latency: { stages: Record<string, number> };
    };
    expect(turn.agentResponse).toBe(PIECES.join(''));
    expect(turn.functionEvents).toEqual([
      expect.objectContaining({ name: 'call_function', args: { name: 'order_status', order: 'A-9' }, status: 'ok' }),
    ]);
    expect(turn.llmRequests).toEqual([
      expect.objectContaining({ model: 'tool-model', status: 'ok', promptTokens: 40 }),
      expect.objectContaining({ model: 'tool-model', status: 'ok', promptTokens: 40 }),
    ]);
    const { first_token, generation, retrieval } = turn.latency.stages;
    // measured to the final answer's first piece: after the tool's answer, before the model's last piece
    expect(first_token).toBeGreaterThanOrEqual(TOOL_MS / 1000);
    expect(first_token).toBeLessThan(retrieval + generation);
    client.close();
  });

  it('keeps what the model said before its tool call in the chunks and the recorded answer alike', async () => {
    const id = await session(f, bearer, { streaming_enabled: true });
    const { client } = await connect(f, id, bearer);
    await joined(client);
    client.send({ type: 'EVENT_TYPE_USER_MESSAGE', payload: { text: 'where is my order A-9 please?' } });

    const message = await client.next('EVENT_TYPE_SERVICE_AGENT_MESSAGE', () => true, 20_000);
    const answer = `${PREAMBLE} ${PIECES.join('')}`;
    expect(message.payload.text).toBe(answer);
    const chunks = client.events.filter((e) => e.type === CHUNK && e.payload.message_id === message.payload.message_id);
    expect(chunks[0].payload.text).toBe(PREAMBLE);
    expect(chunks.map((c) => c.payload.text).join('')).toBe(answer);
    const turn = (await conversationEvents(client)).filter((e) => e.type === 'TurnRecorded').at(-1)!.data as {
      agentResponse: string;
    };
    expect(turn.agentResponse).toBe(answer);
    client.close();
  });

  it('answers the Chat API whole through the same round trip (nothing streams there)', async () => {
    const { key } = await operatorKey(f.t, f.account.accountId, { permissions: ['chat'] });
    const r = await request(`${f.t.url}/v1/${f.account.accountId}/${f.agentId}/chat/create`, {
      body: { client_env: 'sandbox', message: 'where is my order A-9 please?' },
      headers: { 'x-api-key': key as string },
    });
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({ response: `${PREAMBLE} ${PIECES.join('')}`, end_conversation: false });
  });
});
