import { EVENT_STORE, type EventStore } from '../../src/event-store/event-store.port';
import { advanceClock } from '../helpers/keys-fixtures';
import {
  connect,
  joined,
  refusedHandshake,
  session,
  startMessagingFixture,
  token,
  type MessagingFixture,
} from './messaging-fixture';

/** Lets the session-timers process manager schedule the new session's expiry. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 100));

describe('messaging session expiry (10 minutes without events, platform clock)', () => {
  let f: MessagingFixture;
  let bearer: string;

  beforeAll(async () => {
    f = await startMessagingFixture();
    bearer = await token(f);
  });
  afterAll(async () => f.close());

  it('open sockets get SESSION_END (abandoned) and close; later handshakes answer 404; the conversation ends (timeout)', async () => {
    const id = await session(f, bearer);
    const { client } = await connect(f, id, bearer);
    const other = (await connect(f, id, bearer)).client;
    await joined(client);
    await settle();
    await advanceClock(f.t, 599);
    client.send({ type: 'EVENT_TYPE_HEARTBEAT' });
    await client.next('EVENT_TYPE_HEARTBEAT');
    expect(client.events.some((e) => e.type === 'EVENT_TYPE_SESSION_END')).toBe(false);

    await advanceClock(f.t, 2);
    for (const socket of [client, other]) {
      expect((await socket.next('EVENT_TYPE_SESSION_END')).payload).toEqual({ reason: 'REASON_USER_ABANDONED' });
      expect((await socket.closed).code).toBe(1000);
    }
    const r = await refusedHandshake(f.t.url, { session_id: id, access_token: bearer });
    expect(r.status).toBe(404);
    expect(r.body.error_message).toBe('session not found');

    const conversationId = client.events.find((e) => e.type === 'EVENT_TYPE_SERVICE_AGENT_JOINED')!.payload
      .conversation_id;
    const events = await f.t.app.get<EventStore>(EVENT_STORE).readStream(`conversation-${conversationId}`);
    // post-call analysis may follow the end (behind the log)
    expect(events.find((e) => e.type === 'ConversationEnded')).toMatchObject({ data: { reason: 'timeout' } });
  });

  it('every stored event restarts the 10 minutes; heartbeats and dropped connections do not', async () => {
    const id = await session(f, bearer);
    let { client } = await connect(f, id, bearer);
    await joined(client);
    await settle();
    await advanceClock(f.t, 500);
    client.send({ type: 'EVENT_TYPE_USER_MESSAGE', payload: { text: 'refund' } });
    await client.next('EVENT_TYPE_SERVICE_AGENT_MESSAGE', (e) => e.sequence === 5);
    // a dropped connection does not end the session
    client.close();
    await client.closed;
    await advanceClock(f.t, 500);
    ({ client } = await connect(f, id, bearer, 5));
    client.send({ type: 'EVENT_TYPE_HEARTBEAT' });
    await client.next('EVENT_TYPE_HEARTBEAT');
    await advanceClock(f.t, 99);
    expect(client.events.some((e) => e.type === 'EVENT_TYPE_SESSION_END')).toBe(false);
    await advanceClock(f.t, 2);
    expect((await client.next('EVENT_TYPE_SESSION_END')).payload.reason).toBe('REASON_USER_ABANDONED');
  });

  it('a session with no socket expires too; its id is then unknown', async () => {
    const id = await session(f, bearer);
    await settle();
    await advanceClock(f.t, 601);
    const events = await f.t.app.get<EventStore>(EVENT_STORE).readStream(`messaging-session-${id}`);
    expect(events.map((e) => e.type)).toEqual(['MessagingSessionStarted', 'MessagingSessionEnded']);
    expect((await refusedHandshake(f.t.url, { session_id: id, access_token: bearer })).status).toBe(404);
  });
});
