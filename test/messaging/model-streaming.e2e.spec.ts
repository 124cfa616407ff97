import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { EVENT_STORE, type EventStore } from '../../src/event-store/event-store.port';
import { patient } from '../support/patience';
import { connect, joined, session, startMessagingFixture, token, type MessagingFixture } from './messaging-fixture';

const PIECES = ['Refunds ', 'take ', 'five ', 'working ', 'days.'];
const CHUNK = 'EVENT_TYPE_SERVICE_AGENT_MESSAGE_CHUNK';

/**
 * An OpenAI-compatible server (the hosted model cannot exist here) that streams its answer as
 * server-sent events, one piece at a time with a pause between them, and counts what it has sent.
 */
function streamingModel(gapMs: number) {
  const state = { sent: 0, requests: [] as Array<{ stream?: boolean }> };
  const server = http.createServer((req, res) => {
    let raw = '';
    req.on('data', (c) => (raw += c));
    req.on('end', () => {
      state.requests.push(JSON.parse(raw));
      state.sent = 0;
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      const send = (data: unknown) => res.write(`data: ${JSON.stringify(data)}\n\n`);
      let i = 0;
      const next = () => {
        if (i < PIECES.length) {
          send({ choices: [{ index: 0, delta: { content: PIECES[i] } }] });
          state.sent = ++i;
          setTimeout(next, gapMs);
          return;
        }
        send({ choices: [], usage: { prompt_tokens: 30, completion_tokens: 5 } });
        res.end('data: [DONE]\n\n');
      };
      next();
    });
  });
  return {
    state,
    start: () =>
      new Promise<string>((resolve) =>
        server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`)),
      ),
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe('messaging: the model streams its answer to web chat', () => {
  const model = streamingModel(patient(300));
  let f: MessagingFixture;
  let bearer: string;

  beforeAll(async () => {
    const url = await model.start();
    f = await startMessagingFixture({
      LLM_BASE_URL: url,
      LLM_MODEL: 'stream-model',
      LLM_TIMEOUT_MS: String(patient(20_000)),
    });
    bearer = await token(f);
  });
  afterAll(async () => {
    await f.close();
    await model.stop();
  });

  it('sends the first chunk before the model has sent its last, and stores the turn whole', async () => {
    const id = await session(f, bearer, { streaming_enabled: true });
    const { client } = await connect(f, id, bearer);
    await joined(client);
    client.send({ type: 'EVENT_TYPE_USER_MESSAGE', payload: { text: 'can I get a refund?' } });

    const first = await client.next(CHUNK, () => true, 10_000);
    // the model has not finished writing when its first words reach the socket
    expect(model.state.sent).toBeLessThan(PIECES.length);
    expect(first.payload).toMatchObject({ text: PIECES[0], chunk_index: 0, is_complete: false });
    expect(model.state.requests.at(-1)!.stream).toBe(true);

    const message = await client.next('EVENT_TYPE_SERVICE_AGENT_MESSAGE', () => true, 20_000);
    expect(message.payload.text).toBe(PIECES.join(''));
    const chunks = client.events.filter((e) => e.type === CHUNK);
    expect(chunks.every((c) => c.payload.message_id === message.payload.message_id && c.sequence === null)).toBe(true);
    expect(chunks.map((c) => c.payload.text).join('')).toBe(PIECES.join(''));
    expect(chunks.map((c) => c.payload.chunk_index)).toEqual(chunks.map((_, i) => i));
    expect(chunks.at(-1)!.payload.is_complete).toBe(true);

    const conversationId = client.events.find((e) => e.type === 'EVENT_TYPE_SERVICE_AGENT_JOINED')!.payload
      .conversation_id;
    const events = await f.t.app.get<EventStore>(EVENT_STORE).readStream(`conversation-${conversationId}`);
    const turns = events.filter((e) => e.type === 'TurnRecorded').map((e) => e.data as Record<string, never>);
    expect(turns).toHaveLength(2); // the greeting, then one turn with the whole answer
    const turn = turns[1] as unknown as {
      agentResponse: string;
      llmRequests: Array<Record<string, unknown>>;
      latency: { stages: Record<string, number> };
    };
    expect(turn.agentResponse).toBe(PIECES.join(''));
    expect(turn.llmRequests).toEqual([
      expect.objectContaining({ model: 'stream-model', status: 'ok', promptTokens: 30, completionTokens: 5 }),
    ]);
    const { first_token, generation, retrieval } = turn.latency.stages;
    expect(first_token).toBeGreaterThan(0);
    // the first token came well before the answer was done (four pauses of the model's)
    expect(first_token).toBeLessThan(retrieval + generation);
    client.close();
  });

  it('without streaming, the session gets the stored answer only', async () => {
    const id = await session(f, bearer);
    const { client } = await connect(f, id, bearer);
    await joined(client);
    client.send({ type: 'EVENT_TYPE_USER_MESSAGE', payload: { text: 'can I get a refund?' } });
    const message = await client.next('EVENT_TYPE_SERVICE_AGENT_MESSAGE', () => true, 20_000);
    expect(message.payload.text).toBe(PIECES.join(''));
    expect(client.events.filter((e) => e.type === CHUNK)).toEqual([]);
    client.close();
  });
});
