import { EVENT_STORE, type EventStore } from '../../src/event-store/event-store.port';
import { advanceClock } from '../helpers/keys-fixtures';
import { request } from '../helpers/test-app';
import { ChatClient, connect, session, startMessagingFixture, token, type MessagingFixture } from './messaging-fixture';

/** sessions that end together, each watched by its own socket */
const AT_ONCE = 8;
const ROUNDS = 2;

/** Lets the session-timers process manager schedule the new sessions' expiry. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 100));

interface Joined {
  client: ChatClient;
  sessionId: string;
  conversationId: string;
}

/** What a socket saw at its session's end: the conversation's read status and in_progress, and the log's order. */
type Seen = [number, boolean, 'conversation ended first' | 'session ended first'];

/**
 * Issue 47 on the web chat: a socket told EVENT_TYPE_SESSION_END (or that the service agent handed
 * off) reads its conversation ended through the Conversations API at once. Each round ends several
 * sessions together and reads every conversation the moment its frame arrives. Frames come from
 * the log (session-feed.ts), so what makes that hold whatever the timing is the log's order: the
 * conversation's end is appended before the session event that tells the socket.
 */
describe('web chat: a session that ended reads ended at once (issue 47)', () => {
  let f: MessagingFixture;
  let store: EventStore;

  beforeAll(async () => {
    f = await startMessagingFixture({}, ['agents', 'keys', 'conversations']);
    store = f.t.app.get<EventStore>(EVENT_STORE);
  });
  afterAll(async () => f.close());

  /** AT_ONCE sessions, each joined by the service agent. */
  function joinedSessions(): Promise<Joined[]> {
    return Promise.all(
      Array.from({ length: AT_ONCE }, async () => {
        // a token each: session creation is rate-limited per token
        const bearer = await token(f);
        const sessionId = await session(f, bearer);
        const { client } = await connect(f, sessionId, bearer);
        client.send({ type: 'EVENT_TYPE_REQUEST_SERVICE_AGENT_JOIN' });
        const joined = await client.next('EVENT_TYPE_SERVICE_AGENT_JOINED');
        await client.next('EVENT_TYPE_SERVICE_AGENT_MESSAGE');
        return { client, sessionId, conversationId: joined.payload.conversation_id as string };
      }),
    );
  }

  /** Once `frame` reaches the socket: the conversation as the Conversations API reads it, then the log's order. */
  async function readOn(frame: string, sessionEvent: string, { client, sessionId, conversationId }: Joined) {
    await client.next(frame);
    const r = await request(`${f.t.url}/v3/${f.account.accountId}/${f.agentId}/conversations/${conversationId}`, {
      headers: { 'x-api-key': f.account.key },
    });
    client.close();
    const ended = (await store.readStream(`conversation-${conversationId}`)).find(
      (e) => e.type === 'ConversationEnded',
    );
    const told = (await store.readStream(`messaging-session-${sessionId}`)).find((e) => e.type === sessionEvent);
    const order = ended && told && ended.position < told.position ? 'conversation ended first' : 'session ended first';
    return [r.status, r.body.in_progress, order] as Seen;
  }

  /** ROUNDS of AT_ONCE sessions: `end` ends them all, each read once `frame` arrives. */
  async function roundsOf(end: (sessions: Joined[]) => Promise<unknown>, frame: string, sessionEvent: string) {
    const seen: Seen[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const sessions = await joinedSessions();
      const reads = sessions.map((s) => readOn(frame, sessionEvent, s));
      await end(sessions);
      seen.push(...(await Promise.all(reads)));
    }
    return seen;
  }

  const ended: Seen[] = Array(ROUNDS * AT_ONCE).fill([200, false, 'conversation ended first']);
  const say = (text: string) => async (sessions: Joined[]) => {
    for (const { client } of sessions) client.send({ type: 'EVENT_TYPE_USER_MESSAGE', payload: { text } });
  };

  it('USER_END_SESSION: ended once SESSION_END arrives', async () => {
    const end = async (sessions: Joined[]) => {
      for (const { client } of sessions) client.send({ type: 'EVENT_TYPE_USER_END_SESSION' });
    };
    expect(await roundsOf(end, 'EVENT_TYPE_SESSION_END', 'MessagingSessionEnded')).toEqual(ended);
  });

  it('10 minutes idle: ended once SESSION_END (abandoned) arrives', async () => {
    const end = async () => {
      await settle();
      await advanceClock(f.t, 601);
    };
    expect(await roundsOf(end, 'EVENT_TYPE_SESSION_END', 'MessagingSessionEnded')).toEqual(ended);
  });

  it("the agent's end_conversation: ended once SESSION_END arrives", async () => {
    const seen = await roundsOf(say('goodbye that is all'), 'EVENT_TYPE_SESSION_END', 'MessagingSessionEnded');
    expect(seen).toEqual(ended);
  });

  it("the agent's handoff: ended once SERVICE_AGENT_TRIGGERED_HANDOFF arrives", async () => {
    const seen = await roundsOf(
      say('human agent please'),
      'EVENT_TYPE_SERVICE_AGENT_TRIGGERED_HANDOFF',
      'MessagingHandoffTriggered',
    );
    expect(seen).toEqual(ended);
  });
});
