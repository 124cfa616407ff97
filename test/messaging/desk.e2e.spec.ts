import { SessionCommands } from '../../src/messaging/session-commands';
import { advanceClock, operatorKey } from '../helpers/keys-fixtures';
import {
  ChatClient,
  connect,
  DeskClient,
  joined,
  refusedHandshake,
  session,
  startMessagingFixture,
  token,
  type MessagingFixture,
} from './messaging-fixture';
import type { Json } from '../helpers/json';

const ERROR = 'SYSTEM_MESSAGE_LEVEL_ERROR';

const queued = (sessionId: string) => (frame: Json) =>
  frame.type === 'QUEUE_UPDATED' && frame.queue.some((q: Json) => q.session_id === sessionId);
const notQueued = (sessionId: string) => (frame: Json) =>
  frame.type === 'QUEUE_UPDATED' && !frame.queue.some((q: Json) => q.session_id === sessionId);

describe('live-agent desk /desk/ws', () => {
  let f: MessagingFixture;
  let bearer: string;
  let deskKey: string;
  let secondDeskKey: string;

  async function handedOff(): Promise<{ id: string; user: ChatClient }> {
    const id = await session(f, bearer);
    const { client: user } = await connect(f, id, bearer);
    await joined(user);
    user.send({ type: 'EVENT_TYPE_USER_MESSAGE', payload: { text: 'human agent please' } });
    await user.next('EVENT_TYPE_SERVICE_AGENT_TRIGGERED_HANDOFF');
    return { id, user };
  }

  beforeAll(async () => {
    f = await startMessagingFixture({ MESSAGING_HANDOFF_TIMEOUT_S: '120' });
    bearer = await token(f);
    deskKey = (await operatorKey(f.t, f.account.accountId, { name: 'Dana (desk)', permissions: ['desk'] })).key;
    secondDeskKey = (await operatorKey(f.t, f.account.accountId, { name: 'Sam (desk)', permissions: ['desk'] })).key;
  });
  afterAll(async () => f.close());
  afterEach(() => jest.restoreAllMocks());

  it('handshake: 401 without a key or with an unknown one, 403 for a key without the desk permission', async () => {
    expect((await refusedHandshake(f.t.url, {}, '/desk/ws')).status).toBe(401);
    const unknown = await refusedHandshake(f.t.url, { api_key: 'sk_notakey' }, '/desk/ws');
    expect(unknown.status).toBe(401);
    expect(unknown.body.error_code).toBe('API_KEY_INVALID');
    const noDesk = await refusedHandshake(f.t.url, { api_key: f.account.key }, '/desk/ws');
    expect(noDesk.status).toBe(403);
    expect(noDesk.body.error_message).toBe('this key lacks the desk permission');
  });

  it('a handoff enters the queue; a human accepts, chats, types, and leaves; two desks race for it', async () => {
    const dana = await DeskClient.open(f.t.url, deskKey, 'Dana');
    const sam = await DeskClient.open(f.t.url, secondDeskKey);
    expect(await dana.next((m) => m.type === 'DESK_READY')).toMatchObject({ agent_name: 'Dana', sessions: [] });

    const { id, user } = await handedOff();
    expect(user.events.some((e) => e.type === 'EVENT_TYPE_HANDOFF_FAILED')).toBe(false);
    const entry = (await dana.next(queued(id))).queue.find((q: Json) => q.session_id === id);
    expect(entry).toMatchObject({ destination: 'support', reason: 'asked for a human', queued_at: expect.any(String) });
    await sam.next(queued(id));

    // while queued, the user's words wait for whoever accepts
    user.send({ type: 'EVENT_TYPE_USER_MESSAGE', payload: { text: 'is anyone there?' } });
    await user.next('EVENT_TYPE_USER_MESSAGE', (e) => e.payload.text === 'is anyone there?');

    dana.send({ type: 'ACCEPT', session_id: id });
    sam.send({ type: 'ACCEPT', session_id: id });
    const accepted = await dana.next((m) => m.type === 'SESSION_ACCEPTED');
    expect(accepted.history.map((e: Json) => e.type)).toEqual(
      expect.arrayContaining(['EVENT_TYPE_SERVICE_AGENT_TRIGGERED_HANDOFF', 'EVENT_TYPE_USER_MESSAGE']),
    );
    expect(accepted.history.at(-1)).toMatchObject({ type: 'EVENT_TYPE_LIVE_AGENT_JOINED' });
    expect(await sam.next((m) => m.type === 'ERROR')).toMatchObject({
      session_id: id,
      message: expect.stringContaining('not waiting for a live agent'),
    });
    expect((await user.next('EVENT_TYPE_HANDOFF_ACCEPTED')).payload.agent_name).toBe('Dana');
    expect((await user.next('EVENT_TYPE_LIVE_AGENT_JOINED')).payload).toEqual({ agent_name: 'Dana' });
    await dana.next(notQueued(id));

    dana.send({ type: 'TYPING', session_id: id, state: true });
    expect(await user.next('EVENT_TYPE_LIVE_AGENT_TYPING')).toMatchObject({
      sequence: null,
      payload: { agent_name: 'Dana', state: true },
    });
    dana.send({ type: 'MESSAGE', session_id: id, text: 'Hi, Dana here. How can I help?' });
    expect((await user.next('EVENT_TYPE_LIVE_AGENT_MESSAGE')).payload).toMatchObject({
      text: 'Hi, Dana here. How can I help?',
      agent_name: 'Dana',
    });

    user.send({ type: 'EVENT_TYPE_USER_TYPING', payload: { state: true } });
    expect(
      (await dana.next((m) => m.type === 'SESSION_EVENT' && m.event.type === 'EVENT_TYPE_USER_TYPING')).session_id,
    ).toBe(id);
    user.send({ type: 'EVENT_TYPE_USER_MESSAGE', payload: { text: 'my order never came' } });
    expect(
      (await dana.next((m) => m.type === 'SESSION_EVENT' && m.event.type === 'EVENT_TYPE_USER_MESSAGE')).event.payload
        .text,
    ).toBe('my order never came');

    // Sam does not hold it
    sam.send({ type: 'MESSAGE', session_id: id, text: 'me too' });
    expect((await sam.next((m) => m.type === 'ERROR')).message).toBe('you do not hold this session');

    // a desk that reconnects sees what it holds
    const danaAgain = await DeskClient.open(f.t.url, deskKey, 'Dana');
    expect((await danaAgain.next((m) => m.type === 'DESK_READY')).sessions).toEqual([id]);
    danaAgain.close();

    dana.send({ type: 'LEAVE', session_id: id });
    expect((await user.next('EVENT_TYPE_LIVE_AGENT_LEFT')).payload).toEqual({ agent_name: 'Dana' });
    user.send({ type: 'EVENT_TYPE_USER_MESSAGE', payload: { text: 'hello?' } });
    expect((await user.next('EVENT_TYPE_SYSTEM_MESSAGE')).payload).toEqual({
      level: ERROR,
      message: 'Error: Conversation not found',
    });
    // the user's history holds the whole exchange, in order
    const stored = user.events.filter((e) => e.sequence !== null);
    expect(stored.map((e) => e.sequence)).toEqual(stored.map((_, i) => i + 2));
    user.close();
    dana.close();
    sam.close();
  });

  it('"Failed to forward message to live agent" when the message cannot be recorded', async () => {
    const dana = await DeskClient.open(f.t.url, deskKey, 'Dana');
    const { id, user } = await handedOff();
    await dana.next(queued(id));
    dana.send({ type: 'ACCEPT', session_id: id });
    await user.next('EVENT_TYPE_LIVE_AGENT_JOINED');
    const commands = f.t.app.get(SessionCommands);
    const execute = commands.execute.bind(commands);
    jest
      .spyOn(commands, 'execute')
      .mockImplementation((sessionId, command, context) =>
        command.type === 'RecordUserMessage'
          ? Promise.reject(new Error('disk I/O error'))
          : execute(sessionId, command, context),
      );
    user.send({ type: 'EVENT_TYPE_USER_MESSAGE', payload: { text: 'still there?' }, metadata: { custom: { m: 7 } } });
    expect(await user.next('EVENT_TYPE_SYSTEM_MESSAGE')).toMatchObject({
      payload: { level: ERROR, message: 'Failed to forward message to live agent' },
      metadata: { custom: { m: 7 } },
    });
    user.close();
    dana.close();
  });

  it('no desk agent within the timeout: HANDOFF_TIMEOUT, and the session leaves the queue', async () => {
    const dana = await DeskClient.open(f.t.url, deskKey, 'Dana');
    const { id, user } = await handedOff();
    await dana.next(queued(id));
    await advanceClock(f.t, 119);
    expect(user.events.some((e) => e.type === 'EVENT_TYPE_HANDOFF_TIMEOUT')).toBe(false);
    await advanceClock(f.t, 2);
    expect((await user.next('EVENT_TYPE_HANDOFF_TIMEOUT')).sequence).toEqual(expect.any(Number));
    await dana.next(notQueued(id));
    dana.send({ type: 'ACCEPT', session_id: id });
    expect((await dana.next((m) => m.type === 'ERROR')).message).toContain('not waiting for a live agent');
    user.close();
    dana.close();
  });

  it('a desk key scoped to other agents does not see the queue of this one', async () => {
    const elsewhere = await f.api.createAgent('Other bot', 'Hello');
    const scoped = (
      await operatorKey(f.t, f.account.accountId, {
        name: 'scoped',
        permissions: ['desk'],
        agents: [elsewhere.agentId],
      })
    ).key;
    const desk = await DeskClient.open(f.t.url, scoped);
    const { id, user } = await handedOff();
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(desk.frames.some(queued(id))).toBe(false);
    desk.send({ type: 'ACCEPT', session_id: id });
    expect((await desk.next((m) => m.type === 'ERROR')).message).toBe('session not found');
    user.close();
    desk.close();
  });
});
