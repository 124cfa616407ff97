import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { EVENT_STORE, type EventStore } from '../../src/event-store/event-store.port';
import { SqliteEventStore } from '../../src/event-store/sqlite/sqlite-event-store';
import { SessionCommands } from '../../src/messaging/session-commands';
import { Clock } from '../../src/platform/clock/clock';
import { toNewEvents } from '../../src/commands/command-handler';
import { request } from '../helpers/test-app';
import {
  connect,
  createConnector,
  joined,
  KB,
  refusedHandshake,
  session,
  startMessagingFixture,
  token,
  type MessagingFixture,
} from './messaging-fixture';
import { patient } from '../support/patience';

const ERROR = 'SYSTEM_MESSAGE_LEVEL_ERROR';

describe('messaging: the service agent through the runtime', () => {
  let f: MessagingFixture;
  let bearer: string;

  beforeAll(async () => {
    // another process's appends are noticed at the next poll of the log: a long one here, so that the
    // late frame below reaches the app before it learns, by reading, of the session's end
    f = await startMessagingFixture({ EVENT_STORE_POLL_MS: String(patient(1000)) });
    bearer = await token(f);
  });
  afterAll(async () => f.close());
  afterEach(() => jest.restoreAllMocks());

  it("records the conversation like debug chat: channel WEBCHAT, the connector's environment and deployment", async () => {
    const id = await session(f, bearer);
    const { client } = await connect(f, id, bearer);
    await joined(client);
    client.send({
      type: 'EVENT_TYPE_USER_MESSAGE',
      payload: { text: 'when will my parcel arrive?' },
      metadata: { custom: { page: 'cart' } },
    });
    await client.next('EVENT_TYPE_SERVICE_AGENT_MESSAGE');
    const conversationId = client.events.find((e) => e.type === 'EVENT_TYPE_SERVICE_AGENT_JOINED')!.payload
      .conversation_id;
    const store = f.t.app.get<EventStore>(EVENT_STORE);
    const events = await store.readStream(`conversation-${conversationId}`);
    expect(events.map((e) => e.type)).toEqual(['ConversationStarted', 'StateChanged', 'TurnRecorded', 'TurnRecorded']);
    const active = await f.api.active(f.agentId);
    expect(events[0].data).toMatchObject({
      conversationId,
      channel: 'WEBCHAT',
      environment: 'sandbox',
      deploymentId: active.sandbox!.id,
    });
    expect(events[3].data).toMatchObject({
      turnIndex: 1,
      userInput: 'when will my parcel arrive?',
      agentResponse: KB[1].content,
      citedTopic: 'Delivery',
      inputMetadata: { custom: { page: 'cart' } },
    });
    client.close();
  });

  it('with streaming_enabled, the answer arrives as chunks first, which reassemble to the message', async () => {
    const id = await session(f, bearer, { streaming_enabled: true });
    const { client, batch } = await connect(f, id, bearer);
    expect(batch.payload.events[0].payload.capabilities.streaming).toBe(true);
    await joined(client);
    client.send({ type: 'EVENT_TYPE_USER_MESSAGE', payload: { text: 'delivery time' } });
    const message = await client.next('EVENT_TYPE_SERVICE_AGENT_MESSAGE');
    const at = client.events.indexOf(message);
    const chunks = client.events.filter((e) => e.type === 'EVENT_TYPE_SERVICE_AGENT_MESSAGE_CHUNK');
    expect(chunks.length).toBeGreaterThan(1);
    expect(
      chunks.every(
        (c) =>
          client.events.indexOf(c) < at && c.sequence === null && c.payload.message_id === message.payload.message_id,
      ),
    ).toBe(true);
    expect(chunks.map((c) => c.payload.chunk_index)).toEqual(chunks.map((_, i) => i));
    expect(chunks.map((c) => c.payload.is_complete)).toEqual(chunks.map((_, i) => i === chunks.length - 1));
    expect(chunks.map((c) => c.payload.text).join('')).toBe(message.payload.text);
    expect(message.payload.text).toBe(KB[1].content);
    client.close();
  });

  it('end_conversation ends the session naturally', async () => {
    const id = await session(f, bearer);
    const { client } = await connect(f, id, bearer);
    await joined(client);
    client.send({ type: 'EVENT_TYPE_USER_MESSAGE', payload: { text: 'goodbye that is all' } });
    expect((await client.next('EVENT_TYPE_SERVICE_AGENT_MESSAGE')).payload.text).toBe(KB[4].content);
    expect((await client.next('EVENT_TYPE_SESSION_END')).payload).toEqual({ reason: 'REASON_NATURAL_END' });
    await client.closed;
  });

  it('a handoff with no desk to answer it: HANDOFF_FAILED and "could not connect you to an agent"; then "Error: Conversation not found" until a new join', async () => {
    const id = await session(f, bearer);
    const { client } = await connect(f, id, bearer);
    await joined(client);
    client.send({ type: 'EVENT_TYPE_USER_MESSAGE', payload: { text: 'human agent please' } });
    expect((await client.next('EVENT_TYPE_SERVICE_AGENT_TRIGGERED_HANDOFF')).payload).toMatchObject({
      destination: 'support',
      reason: 'asked for a human',
    });
    expect((await client.next('EVENT_TYPE_HANDOFF_FAILED')).payload).toMatchObject({
      reason: 'no_desk',
      message: 'could not connect you to an agent',
    });
    expect(await client.next('EVENT_TYPE_SYSTEM_MESSAGE')).toMatchObject({
      payload: { level: ERROR, message: 'could not connect you to an agent' },
      sequence: expect.any(Number),
    });
    client.send({ type: 'EVENT_TYPE_USER_MESSAGE', payload: { text: 'hello?' }, metadata: { custom: { n: 1 } } });
    expect(await client.next('EVENT_TYPE_SYSTEM_MESSAGE')).toMatchObject({
      payload: { level: ERROR, message: 'Error: Conversation not found' },
      metadata: { custom: { n: 1 } },
    });
    // a new join starts a new conversation on the same session
    client.send({ type: 'EVENT_TYPE_REQUEST_SERVICE_AGENT_JOIN' });
    await client.next('EVENT_TYPE_SERVICE_AGENT_JOINED');
    client.send({ type: 'EVENT_TYPE_USER_MESSAGE', payload: { text: 'refund' } });
    expect(
      (await client.next('EVENT_TYPE_SERVICE_AGENT_MESSAGE', (e) => e.payload.text === KB[0].content)).payload.text,
    ).toBe(KB[0].content);
    client.close();
  });

  it('a handoff to a destination that names no queue: "handoff could not be initiated"', async () => {
    const id = await session(f, bearer);
    const { client } = await connect(f, id, bearer);
    await joined(client);
    client.send({ type: 'EVENT_TYPE_USER_MESSAGE', payload: { text: 'odd transfer queue please' } });
    expect((await client.next('EVENT_TYPE_HANDOFF_FAILED')).payload).toMatchObject({
      reason: 'invalid',
      message: 'handoff could not be initiated',
    });
    expect((await client.next('EVENT_TYPE_SYSTEM_MESSAGE')).payload).toEqual({
      level: ERROR,
      message: 'handoff could not be initiated',
    });
    client.close();
  });

  it('"unable to start a conversation": nothing is deployed in the connector\'s environment', async () => {
    const live = await createConnector(f.t, f.account.accountId, f.agentId, 'live', 'example.com');
    const r = await request(`${f.t.url}/api/v1/access-token`, {
      method: 'POST',
      headers: { 'X-Token': live.connectorToken, 'X-Host': 'example.com' },
    });
    const liveToken = r.body.access_token;
    const id = await session(f, liveToken);
    const { client } = await connect(f, id, liveToken);
    client.send({ type: 'EVENT_TYPE_REQUEST_SERVICE_AGENT_JOIN', metadata: { custom: { attempt: 1 } } });
    expect(await client.next('EVENT_TYPE_SYSTEM_MESSAGE')).toMatchObject({
      payload: { level: ERROR, message: 'unable to start a conversation' },
      metadata: { custom: { attempt: 1 } },
    });
    client.close();
  });

  it('"Error: Connector not found" on join and "trouble responding" on a turn, once the connector\'s agent is deleted', async () => {
    const other = await f.api.createAgent('Doomed', 'Hello from the doomed agent');
    await f.api.shipChange(other.agentId, 'kb', (branchId) =>
      f.api.addTopic(other.agentId, branchId, { name: 'Refunds', content: 'Doomed refunds.', queries: ['refund'] }),
    );
    const connector = await createConnector(f.t, f.account.accountId, other.agentId, 'sandbox', 'doomed.example');
    const doomedToken = (
      await request(`${f.t.url}/api/v1/access-token`, {
        method: 'POST',
        headers: { 'X-Token': connector.connectorToken, 'X-Host': 'doomed.example' },
      })
    ).body.access_token;
    const running = await connect(f, await session(f, doomedToken), doomedToken);
    await joined(running.client);
    const waiting = await connect(f, await session(f, doomedToken), doomedToken);
    expect((await f.api.delete(`/v1/agents/${other.agentId}`)).status).toBe(204);

    running.client.send({ type: 'EVENT_TYPE_USER_MESSAGE', payload: { text: 'refund' } });
    expect((await running.client.next('EVENT_TYPE_SYSTEM_MESSAGE')).payload).toEqual({
      level: ERROR,
      message: 'trouble responding',
    });
    waiting.client.send({ type: 'EVENT_TYPE_REQUEST_SERVICE_AGENT_JOIN' });
    expect((await waiting.client.next('EVENT_TYPE_SYSTEM_MESSAGE')).payload).toEqual({
      level: ERROR,
      message: 'Error: Connector not found',
    });
    running.client.close();
    waiting.client.close();
  });

  it('"Error: Unable to retrieve session": the session cannot be read', async () => {
    const id = await session(f, bearer);
    const { client } = await connect(f, id, bearer);
    jest
      .spyOn(f.t.app.get(SessionCommands), 'current')
      .mockRejectedValueOnce(new Error('SQLITE_BUSY: database is locked'));
    client.send({ type: 'EVENT_TYPE_REQUEST_SERVICE_AGENT_JOIN', metadata: { custom: { retry: 0 } } });
    expect(await client.next('EVENT_TYPE_SYSTEM_MESSAGE')).toMatchObject({
      payload: { level: ERROR, message: 'Error: Unable to retrieve session' },
      metadata: { custom: { retry: 0 } },
    });
    // transient: the next try works
    client.send({ type: 'EVENT_TYPE_REQUEST_SERVICE_AGENT_JOIN' });
    await client.next('EVENT_TYPE_SERVICE_AGENT_JOINED');
    client.close();
  });

  it('"encountered an error": the answer could not be stored (its chunks, held for it, never go out)', async () => {
    const id = await session(f, bearer, { streaming_enabled: true });
    const { client } = await connect(f, id, bearer);
    await joined(client);
    const store = f.t.app.get<EventStore>(EVENT_STORE);
    const append = store.append.bind(store);
    jest
      .spyOn(store, 'append')
      .mockImplementation((streamId, events, expected) =>
        streamId === `messaging-session-${id}`
          ? Promise.reject(new Error('disk full'))
          : append(streamId, events, expected),
      );
    client.send({ type: 'EVENT_TYPE_USER_MESSAGE', payload: { text: 'refund' } });
    expect((await client.next('EVENT_TYPE_SYSTEM_MESSAGE')).payload).toEqual({
      level: ERROR,
      message: 'encountered an error',
    });
    // chunks wait for their stored answer, after the user's message (socket-hub.ts): none of an unstored one
    expect(client.events.some((e) => e.type === 'EVENT_TYPE_SERVICE_AGENT_MESSAGE_CHUNK')).toBe(false);
    client.close();
  });

  it('"Error: Session not found": another process ended the session an instant before the frame', async () => {
    const id = await session(f, bearer);
    const { client } = await connect(f, id, bearer);
    await joined(client);
    // a second writer on the same log, as another API process would be: this process learns of it only by reading
    const other = await SqliteEventStore.open({
      file: path.join(f.t.dataDir, 'events.sqlite'),
      sync: 'normal',
      writer: 'inline',
      pollIntervalMs: 1000,
    });
    try {
      const clock = f.t.app.get(Clock);
      await other.append(
        `messaging-session-${id}`,
        toNewEvents(
          [{ type: 'MessagingSessionEnded', data: { reason: 'REASON_USER_END', at: clock.nowIso() } }],
          { actor: 'other-process', correlationId: 'x' },
          clock,
        ),
        2n,
      );
      client.send({
        type: 'EVENT_TYPE_USER_MESSAGE',
        payload: { text: 'refund' },
        metadata: { custom: { late: true } },
      });
      expect(await client.next('EVENT_TYPE_SYSTEM_MESSAGE')).toMatchObject({
        payload: { level: ERROR, message: 'Error: Session not found' },
        metadata: { custom: { late: true } },
      });
      // followed by the SESSION_END the feed finds in the log
      expect((await client.next('EVENT_TYPE_SESSION_END')).payload).toEqual({ reason: 'REASON_USER_END' });
      await client.closed;
    } finally {
      await other.close();
    }
  });
});

describe('messaging: overload and rate limits', () => {
  let f: MessagingFixture;
  let bearer: string;
  let model: http.Server;

  beforeAll(async () => {
    // a model that takes 400 ms: one turn stays in flight long enough for the next to find the gate full
    model = http.createServer((req, res) => {
      req.resume();
      req.on('end', () =>
        setTimeout(
          () =>
            res
              .writeHead(200, { 'content-type': 'application/json' })
              .end(
                JSON.stringify({ choices: [{ index: 0, message: { role: 'assistant', content: 'From the model.' } }] }),
              ),
          400,
        ),
      );
    });
    await new Promise<void>((resolve) => model.listen(0, '127.0.0.1', () => resolve()));
    const url = `http://127.0.0.1:${(model.address() as AddressInfo).port}`;
    f = await startMessagingFixture({
      LLM_BASE_URL: url,
      LLM_TIMEOUT_MS: '5000',
      MESSAGING_MAX_CONCURRENT_TURNS: '1',
      MESSAGING_RATE_LIMIT_PER_SESSION: '2',
      MESSAGING_MAX_CONNECTIONS_PER_SESSION: '100',
    });
    bearer = await token(f);
  });
  afterAll(async () => {
    await f.close();
    await new Promise<void>((resolve) => model.close(() => resolve()));
  });

  it('"high-load message (try again in a moment)" while the agent is saturated', async () => {
    const [a, b] = await Promise.all(
      [1, 2].map(async () => (await connect(f, await session(f, bearer), bearer)).client),
    );
    await joined(a);
    await joined(b);
    a.send({ type: 'EVENT_TYPE_USER_MESSAGE', payload: { text: 'refund' } });
    // the model takes 400 ms: the wait is announced, transient
    expect((await a.next('EVENT_TYPE_SERVICE_AGENT_THINKING')).sequence).toBeNull();
    b.send({ type: 'EVENT_TYPE_USER_MESSAGE', payload: { text: 'refund' }, metadata: { custom: { q: 'b' } } });
    expect(await b.next('EVENT_TYPE_SYSTEM_MESSAGE')).toMatchObject({
      payload: { level: ERROR, message: 'high-load message (try again in a moment)' },
      metadata: { custom: { q: 'b' } },
    });
    expect((await a.next('EVENT_TYPE_SERVICE_AGENT_MESSAGE')).payload.text).toBe('From the model.');
    a.close();
    b.close();
  });

  it('over-limit frames are dropped with a system message; heartbeats are not limited', async () => {
    await new Promise((resolve) => setTimeout(resolve, 1100));
    const id = await session(f, bearer);
    const { client } = await connect(f, id, bearer);
    for (let i = 0; i < 6; i++)
      client.send({ type: 'EVENT_TYPE_USER_TYPING', payload: { state: i % 2 === 0 }, metadata: { custom: { i } } });
    const dropped = await client.next('EVENT_TYPE_SYSTEM_MESSAGE');
    expect(dropped.payload).toEqual({
      level: ERROR,
      message: 'rate limit exceeded: message dropped (try again in a moment)',
    });
    for (let i = 0; i < 6; i++) client.send({ type: 'EVENT_TYPE_HEARTBEAT' });
    for (let i = 0; i < 6; i++) await client.next('EVENT_TYPE_HEARTBEAT');
    client.close();
  });

  it('handshakes past the per-session limit answer 429 with Retry-After', async () => {
    await new Promise((resolve) => setTimeout(resolve, 1100));
    const id = await session(f, bearer);
    // all at once: the burst (twice the rate) passes, the rest are refused
    // (the limiter is on the wall clock: enough of them that a slow machine's refills cannot cover them all)
    const attempts = await Promise.allSettled(
      Array.from({ length: 16 }, () => refusedHandshake(f.t.url, { session_id: id, access_token: bearer })),
    );
    const outcomes = attempts.map((a) =>
      a.status === 'fulfilled' ? a.value.status : /accepted/.test(String(a.reason)) ? 'accepted' : String(a.reason),
    );
    expect(outcomes.filter((o) => o !== 'accepted' && o !== 429)).toEqual([]);
    expect(outcomes.filter((o) => o === 'accepted').length).toBeGreaterThanOrEqual(4);
    const refused = attempts.flatMap((a) => (a.status === 'fulfilled' ? [a.value] : []));
    expect(refused.length).toBeGreaterThanOrEqual(1);
    for (const r of refused) {
      expect(r.status).toBe(429);
      expect(r.body.error_code).toBe('RATE_LIMITED');
      expect(Number(r.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    }
  });
});
