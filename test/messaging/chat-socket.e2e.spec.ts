import { randomUUID } from 'node:crypto';
import { SERVER_KINDS } from '../../src/messaging/wire';
import {
  ChatClient,
  connect,
  createConnector,
  GREETING,
  joined,
  KB,
  refusedHandshake,
  session,
  startMessagingFixture,
  token,
  type MessagingFixture,
} from './messaging-fixture';

const ERROR = 'SYSTEM_MESSAGE_LEVEL_ERROR';

describe('messaging WebSocket /ws', () => {
  let f: MessagingFixture;
  let bearer: string;

  beforeAll(async () => {
    f = await startMessagingFixture();
    bearer = await token(f);
  });
  afterAll(async () => f.close());

  describe('handshake errors are HTTP answers', () => {
    let sessionId: string;
    beforeAll(async () => {
      sessionId = await session(f, bearer);
    });

    it('400 invalid connection parameters: session_id or access_token missing', async () => {
      for (const query of [
        { access_token: bearer },
        { session_id: sessionId },
        {},
        { session_id: '', access_token: bearer },
      ] as Array<Record<string, string>>) {
        const r = await refusedHandshake(f.t.url, query);
        expect(r.status).toBe(400);
        expect(r.body).toMatchObject({
          success: false,
          error_code: 'INVALID_CONNECTION_PARAMETERS',
          error_message: 'invalid connection parameters',
        });
        expect(r.body.error_id).toBe(r.headers['x-correlation-id']);
      }
    });

    it('401 authentication failed: an invalid token, or one of another connector', async () => {
      const bad = await refusedHandshake(f.t.url, { session_id: sessionId, access_token: 'not-a-token' });
      expect(bad.status).toBe(401);
      expect(bad.body).toMatchObject({ error_code: 'AUTHENTICATION_FAILED', error_message: 'authentication failed' });
      const other = await createConnector(f.t, f.account.accountId, f.agentId, 'sandbox', 'other.org');
      const r = await fetch(`${f.t.url}/api/v1/access-token`, {
        method: 'POST',
        headers: { 'X-Token': other.connectorToken, 'X-Host': 'other.org' },
      });
      const foreign = ((await r.json()) as { access_token: string }).access_token;
      const mismatched = await refusedHandshake(f.t.url, { session_id: sessionId, access_token: foreign });
      expect(mismatched.status).toBe(401);
      expect(mismatched.body.error_message).toBe('authentication failed');
    });

    it('404 session not found: an unknown id', async () => {
      for (const id of [randomUUID(), 'not-a-session', '../../etc']) {
        const r = await refusedHandshake(f.t.url, { session_id: id, access_token: bearer });
        expect(r.status).toBe(404);
        expect(r.body).toMatchObject({ error_code: 'SESSION_NOT_FOUND', error_message: 'session not found' });
      }
    });

    it('429 connection limit exceeded for session: the 11th simultaneous connection', async () => {
      const id = await session(f, bearer);
      const open = await Promise.all(Array.from({ length: 10 }, () => connect(f, id, bearer)));
      const r = await refusedHandshake(f.t.url, { session_id: id, access_token: bearer });
      expect(r.status).toBe(429);
      expect(r.body).toMatchObject({
        error_code: 'CONNECTION_LIMIT_EXCEEDED',
        error_message: 'connection limit exceeded for session',
      });
      // closing one frees a slot
      open[0].client.close();
      await open[0].client.closed;
      await new Promise((resolve) => setTimeout(resolve, 20));
      const again = await connect(f, id, bearer);
      again.client.close();
      for (const { client } of open.slice(1)) client.close();
    });

    it('404 for other paths', async () => {
      const r = await refusedHandshake(f.t.url, {}, '/nowhere');
      expect(r.status).toBe(404);
    });
  });

  describe('history and live events', () => {
    it('a new session replays SESSION_START with capabilities; join greets; a message is answered from the knowledge base', async () => {
      const id = await session(f, bearer);
      const { client, batch } = await connect(f, id, bearer);
      expect(batch).toMatchObject({ type: 'EVENT_TYPE_EVENT_BATCH', sequence: null, metadata: {} });
      expect(batch.payload.events).toHaveLength(1);
      const [start] = batch.payload.events;
      expect(start).toMatchObject({
        type: 'EVENT_TYPE_SESSION_START',
        sequence: 1,
        payload: {
          session_id: id,
          capabilities: { streaming: false, live_agent_handoff: true, max_connections: 10, max_message_bytes: 131072 },
        },
      });
      expect(start.id).toEqual(expect.any(String));
      expect(Date.parse(start.timestamp)).not.toBeNaN();

      client.send({ type: 'EVENT_TYPE_REQUEST_SERVICE_AGENT_JOIN' });
      const joinedEvent = await client.next('EVENT_TYPE_SERVICE_AGENT_JOINED');
      expect(joinedEvent).toMatchObject({
        sequence: 2,
        payload: { agent_name: 'Shop assistant', conversation_id: expect.stringMatching(/^WEBCHAT-[0-9a-f-]{36}$/) },
      });
      const greeting = await client.next('EVENT_TYPE_SERVICE_AGENT_MESSAGE');
      expect(greeting).toMatchObject({
        sequence: 3,
        payload: { text: GREETING, attachments: [], response_suggestions: [], message_id: expect.any(String) },
      });

      client.send({
        type: 'EVENT_TYPE_USER_MESSAGE',
        payload: { text: 'how do refunds work?' },
        metadata: { custom: { order: 42 } },
      });
      const echo = await client.next('EVENT_TYPE_USER_MESSAGE');
      expect(echo).toMatchObject({
        sequence: 4,
        payload: { text: 'how do refunds work?' },
        metadata: { custom: { order: 42 } },
      });
      const answer = await client.next('EVENT_TYPE_SERVICE_AGENT_MESSAGE');
      expect(answer).toMatchObject({ sequence: 5, payload: { text: KB[0].content } });
      // an instant answer is not announced as thinking (a slow one is: see the model-backed tests)
      expect(client.events.some((e) => e.type === 'EVENT_TYPE_SERVICE_AGENT_THINKING')).toBe(false);
      client.close();
    });

    it('cursor=n replays the events after n; an invalid cursor replays everything; a dropped connection does not end the session', async () => {
      const id = await session(f, bearer);
      const first = await connect(f, id, bearer);
      await joined(first.client);
      first.client.send({ type: 'EVENT_TYPE_USER_MESSAGE', payload: { text: 'delivery time' } });
      await first.client.next('EVENT_TYPE_SERVICE_AGENT_MESSAGE');
      first.client.close();
      await first.client.closed;

      const sequences = (events: Array<{ sequence: number }>) => events.map((e) => e.sequence);
      const resumed = await connect(f, id, bearer, 3);
      expect(sequences(resumed.batch.payload.events)).toEqual([4, 5]);
      expect(resumed.batch.payload.events.map((e: { type: string }) => e.type)).toEqual([
        'EVENT_TYPE_USER_MESSAGE',
        'EVENT_TYPE_SERVICE_AGENT_MESSAGE',
      ]);
      for (const cursor of ['abc', '-1', '', '1.5']) {
        const full = await connect(f, id, bearer, cursor);
        expect(sequences(full.batch.payload.events)).toEqual([1, 2, 3, 4, 5]);
        full.client.close();
      }
      // a cursor past the end replays nothing, and still gets what comes next
      const beyond = await connect(f, id, bearer, 99);
      expect(beyond.batch.payload.events).toEqual([]);
      // the resumed socket still converses
      resumed.client.send({ type: 'EVENT_TYPE_USER_MESSAGE', payload: { text: 'money back please' } });
      expect((await resumed.client.next('EVENT_TYPE_SERVICE_AGENT_MESSAGE')).sequence).toBe(7);
      expect((await beyond.client.next('EVENT_TYPE_SERVICE_AGENT_MESSAGE')).sequence).toBe(7);
      beyond.client.close();
      resumed.client.close();
    });

    it('every socket of a session receives each stored event once, in sequence order', async () => {
      const id = await session(f, bearer);
      const sockets = await Promise.all([connect(f, id, bearer), connect(f, id, bearer), connect(f, id, bearer)]);
      const [a, b] = sockets.map((s) => s.client);
      await joined(a);
      for (const text of ['refund?', 'delivery?', 'shipping please']) {
        b.send({ type: 'EVENT_TYPE_USER_MESSAGE', payload: { text } });
        await a.next('EVENT_TYPE_SERVICE_AGENT_MESSAGE', (e) => e.sequence! > 3);
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
      for (const { client } of sockets) {
        const stored = client.events.filter((e) => e.sequence !== null).map((e) => e.sequence);
        expect(stored).toEqual([2, 3, 4, 5, 6, 7, 8, 9]);
        client.close();
      }
    });
  });

  describe('client kinds', () => {
    let id: string;
    let a: ChatClient;
    let b: ChatClient;
    beforeAll(async () => {
      id = await session(f, bearer);
      a = (await connect(f, id, bearer)).client;
      b = (await connect(f, id, bearer)).client;
    });
    afterAll(() => {
      a.close();
      b.close();
    });

    it('HEARTBEAT is echoed to its sender only, transient, with its payload and custom metadata', async () => {
      a.send({ type: 'EVENT_TYPE_HEARTBEAT', payload: { n: 1 }, metadata: { custom: { tab: 'x' } } });
      const beat = await a.next('EVENT_TYPE_HEARTBEAT');
      expect(beat).toMatchObject({ sequence: null, payload: { n: 1 }, metadata: { custom: { tab: 'x' } } });
      await new Promise((resolve) => setTimeout(resolve, 30));
      expect(b.events.some((e) => e.type === 'EVENT_TYPE_HEARTBEAT')).toBe(false);
    });

    it("USER_TYPING reaches the session's other sockets, not stored", async () => {
      a.send({ type: 'EVENT_TYPE_USER_TYPING', payload: { state: true } });
      const typing = await b.next('EVENT_TYPE_USER_TYPING');
      expect(typing).toMatchObject({ sequence: null, payload: { state: true } });
    });

    it('errors about a frame go back as SYSTEM_MESSAGE (error level) with metadata.custom; the socket stays open', async () => {
      const custom = { trace: 'abc-123' };
      const cases: Array<[unknown, string]> = [
        ['{not json', 'Unknown event type or invalid message format'],
        [{ type: 'EVENT_TYPE_DANCE', metadata: { custom } }, 'Unknown event type or invalid message format'],
        [{ payload: {}, metadata: { custom } }, 'Unknown event type or invalid message format'],
        [
          { type: 'EVENT_TYPE_USER_MESSAGE', payload: 'text', metadata: { custom } },
          'Unknown event type or invalid message format',
        ],
        [{ type: 'EVENT_TYPE_USER_MESSAGE', payload: { text: 42 }, metadata: { custom } }, 'encountered an error'],
        [
          { type: 'EVENT_TYPE_USER_MESSAGE', payload: { text: 'hello' }, metadata: { custom } },
          'Error: Conversation ID not found in session',
        ],
        ...SERVER_KINDS.map((type): [unknown, string] => [
          { type, payload: {}, metadata: { custom } },
          `Event type not allowed: ${type}`,
        ]),
      ];
      for (const [frame, message] of cases) {
        a.send(frame);
        const error = await a.next('EVENT_TYPE_SYSTEM_MESSAGE');
        expect(error).toMatchObject({ sequence: null, payload: { level: ERROR, message } });
        if (typeof frame !== 'string' && (frame as { metadata?: unknown }).metadata)
          expect(error.metadata).toEqual({ custom });
      }
      a.send({ type: 'EVENT_TYPE_HEARTBEAT' });
      await a.next('EVENT_TYPE_HEARTBEAT');
      // the other socket saw none of them
      expect(b.events.some((e) => e.type === 'EVENT_TYPE_SYSTEM_MESSAGE')).toBe(false);
    });

    it('a frame up to 128 KiB is read; a larger one closes the socket (1009)', async () => {
      const frame = (size: number) => {
        const base = JSON.stringify({ type: 'EVENT_TYPE_HEARTBEAT', payload: { pad: '' } });
        return JSON.stringify({ type: 'EVENT_TYPE_HEARTBEAT', payload: { pad: 'x'.repeat(size - base.length) } });
      };
      expect(Buffer.byteLength(frame(128 * 1024))).toBe(128 * 1024);
      const c = (await connect(f, id, bearer)).client;
      c.send(frame(128 * 1024));
      await c.next('EVENT_TYPE_HEARTBEAT');
      c.send(frame(128 * 1024 + 1));
      expect((await c.closed).code).toBe(1009);
    });

    it('USER_END_SESSION ends the session for every socket (SESSION_END, close); later handshakes answer 404', async () => {
      b.send({ type: 'EVENT_TYPE_USER_END_SESSION' });
      for (const client of [a, b]) {
        expect((await client.next('EVENT_TYPE_SESSION_END')).payload).toEqual({ reason: 'REASON_USER_END' });
        expect((await client.closed).code).toBe(1000);
      }
      const r = await refusedHandshake(f.t.url, { session_id: id, access_token: bearer });
      expect(r.status).toBe(404);
    });
  });
});
