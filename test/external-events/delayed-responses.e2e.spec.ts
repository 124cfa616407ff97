import { EVENT_STORE, type EventStore, type RecordedEvent } from '../../src/event-store/event-store.port';
import { smsSessionStream } from '../../src/sms/sms-session.decider';
import { AgentsClient, createAccount, expectOk } from '../helpers/agents-fixture';
import { eventually } from '../helpers/conversations-fixture';
import { operatorKey } from '../helpers/keys-fixtures';
import { request, startTestApp, type TestApp } from '../helpers/test-app';
import { ChatClient, connect, createConnector, joined, type MessagingFixture } from '../messaging/messaging-fixture';
import {
  carrierMessages,
  createSmsConnector,
  delivered,
  newUserNumber,
  noMoreThan,
  provisionNumber,
  sendInbound,
  type SmsConnector,
} from '../sms/sms-fixture';

const AGENT_NUMBER = '+15550100077';

/** An agent that awaits external events and answers them: one answer keeps the conversation going, one ends it. */
const KB = [
  {
    name: 'Pay',
    content: 'Please pay with the link we just sent.',
    queries: ['I want to pay my bill', 'pay bill'],
    actions: 'await_external_event name=payment',
  },
  {
    name: 'event:payment',
    content: 'Payment of $state.external_events.payment.payload.data.amount received, thank you!',
    queries: ['zzqx'],
    actions: 'set_state key=paid value=yes',
  },
  {
    name: 'Verify',
    content: 'We are checking your identity.',
    queries: ['verify my identity', 'identity check'],
    actions: 'await_external_event name=id_check',
  },
  { name: 'event:id_check', content: 'Identity confirmed. Goodbye!', queries: ['zzqy'], actions: 'end_conversation' },
];

/**
 * Contract §7: a result of an external event that lands while the conversation is open is
 * pushed on the channel where one is connected. Web chat: to the session's sockets, as part of
 * its history. SMS: texted to the user. Each is then recorded as delivered on the conversation.
 */
describe('external events: delayed responses pushed on connected channels', () => {
  let t: TestApp;
  let store: EventStore;
  let agentId: string;
  let accountId: string;
  let eventsKey: string;
  let chat: Pick<MessagingFixture, 't' | 'connectorId' | 'connectorToken'>;
  let bearer: string;
  let sms: SmsConnector;

  beforeAll(async () => {
    t = await startTestApp({ PARLEY_TEST_CLOCK: '1', SMS_RATE_LIMIT_PER_PROJECT: '1000' });
    store = t.app.get<EventStore>(EVENT_STORE);
    const account = await createAccount(t, 'Pushy', ['agents', 'keys', 'sms', 'conversations']);
    accountId = account.accountId;
    const api = new AgentsClient(t, account);
    agentId = (await api.createAgent('Cashier', 'Hello, cashier here.')).agentId;
    await api.shipChange(agentId, 'kb', async (branchId) => {
      for (const topic of KB) await api.addTopic(agentId, branchId, topic);
    });
    eventsKey = (await operatorKey(t, accountId, { permissions: ['external_events'] })).key;
    const connector = await createConnector(t, accountId, agentId, 'sandbox', 'example.com');
    chat = { t, connectorId: connector.connectorId, connectorToken: connector.connectorToken };
    const tokenResponse = await request(`${t.url}/api/v1/access-token`, {
      method: 'POST',
      headers: { 'X-Token': connector.connectorToken, 'X-Host': 'example.com' },
    });
    expectOk(tokenResponse, 200);
    bearer = tokenResponse.body.access_token;
    sms = await createSmsConnector(t, accountId, agentId, 'dev');
    await provisionNumber(t, agentId, AGENT_NUMBER, 'dev');
  });
  afterAll(async () => t.close());

  const conversationEvents = (conversationId: string) => store.readStream(`conversation-${conversationId}`);

  async function awaitedId(conversationId: string, name: string): Promise<string> {
    const awaited = (await conversationEvents(conversationId)).find(
      (e) => e.type === 'ExternalEventAwaited' && (e.data as { name: string }).name === name,
    );
    if (!awaited) throw new Error(`${conversationId} awaits no ${name}`);
    return (awaited.data as { eventId: string }).eventId;
  }

  async function deliver(eventId: string, data: Record<string, unknown> = {}) {
    const q = new URLSearchParams({
      event_id_location: 'payload',
      event_id_path: 'data.id',
      account_id: accountId,
      project_id: agentId,
    });
    const r = await request(`${t.url}/v1/external-events/webhook?${q}`, {
      method: 'POST',
      headers: { 'X-Api-Key': eventsKey, 'content-type': 'application/json' },
      rawBody: JSON.stringify({ data: { id: eventId, ...data } }),
    });
    expect(r.status).toBe(201);
  }

  const deliveredOn = (conversationId: string) =>
    eventually(async () => {
      const found = (await conversationEvents(conversationId)).find((e) => e.type === 'DelayedResponseDelivered');
      if (!found) throw new Error(`no DelayedResponseDelivered on ${conversationId} yet`);
      return found as RecordedEvent<{ turnIndex: number }>;
    });

  async function webChat(): Promise<{ sessionId: string; client: ChatClient; conversationId: string }> {
    const r = await request(`${t.url}/api/v1/sessions`, { body: {}, headers: { authorization: `Bearer ${bearer}` } });
    expectOk(r, 200);
    const sessionId: string = r.body.session_id;
    const { client } = await connect(chat as MessagingFixture, sessionId, bearer);
    await joined(client);
    const conversationId: string = client.events.find((e) => e.type === 'EVENT_TYPE_SERVICE_AGENT_JOINED')!.payload
      .conversation_id;
    return { sessionId, client, conversationId };
  }

  it('web chat: every socket of the session gets the answer, which joins the session history; the conversation records it delivered', async () => {
    const { sessionId, client, conversationId } = await webChat();
    const second = (await connect(chat as MessagingFixture, sessionId, bearer)).client;
    client.send({ type: 'EVENT_TYPE_USER_MESSAGE', payload: { text: 'I want to pay my bill' } });
    expect((await client.next('EVENT_TYPE_SERVICE_AGENT_MESSAGE')).payload.text).toBe(KB[0].content);

    await deliver(await awaitedId(conversationId, 'payment'), { amount: '12.50' });
    const pushed = await client.next('EVENT_TYPE_SERVICE_AGENT_MESSAGE');
    expect(pushed.payload).toMatchObject({
      text: 'Payment of 12.50 received, thank you!',
      message_id: expect.any(String),
    });
    expect(pushed.sequence).toEqual(expect.any(Number));
    const onSecond = await second.next(
      'EVENT_TYPE_SERVICE_AGENT_MESSAGE',
      (e) => e.payload.text === pushed.payload.text,
    );
    expect(onSecond.sequence).toBe(pushed.sequence);

    // the conversation: the delayed turn, then its delivery
    const ack = await deliveredOn(conversationId);
    const turn = (await conversationEvents(conversationId)).find(
      (e) => e.type === 'TurnRecorded' && (e.data as { delayedResponse: boolean }).delayedResponse,
    )!;
    expect(ack.data.turnIndex).toBe((turn.data as { turnIndex: number }).turnIndex);

    // a reconnect from just before it replays it
    const { batch } = await connect(chat as MessagingFixture, sessionId, bearer, pushed.sequence! - 1);
    expect(
      batch.payload.events.map((e: { type: string; payload: { text?: string } }) => [e.type, e.payload.text]),
    ).toContainEqual(['EVENT_TYPE_SERVICE_AGENT_MESSAGE', pushed.payload.text]);
    client.close();
    second.close();
  });

  it('web chat: an answer that ends the conversation ends the session naturally', async () => {
    const { client, conversationId } = await webChat();
    client.send({ type: 'EVENT_TYPE_USER_MESSAGE', payload: { text: 'verify my identity' } });
    expect((await client.next('EVENT_TYPE_SERVICE_AGENT_MESSAGE')).payload.text).toBe(KB[2].content);
    await deliver(await awaitedId(conversationId, 'id_check'));
    expect((await client.next('EVENT_TYPE_SERVICE_AGENT_MESSAGE')).payload.text).toBe('Identity confirmed. Goodbye!');
    expect((await client.next('EVENT_TYPE_SESSION_END')).payload).toEqual({ reason: 'REASON_NATURAL_END' });
    await client.closed;
  });

  it('web chat: a session the user ended first gets nothing pushed, and nothing is recorded as delivered', async () => {
    const { sessionId, client, conversationId } = await webChat();
    client.send({ type: 'EVENT_TYPE_USER_MESSAGE', payload: { text: 'I want to pay my bill' } });
    await client.next('EVENT_TYPE_SERVICE_AGENT_MESSAGE');
    const eventId = await awaitedId(conversationId, 'payment');
    client.send({ type: 'EVENT_TYPE_USER_END_SESSION' });
    await client.next('EVENT_TYPE_SESSION_END');
    await deliver(eventId, { amount: '1.00' });
    await eventually(async () => {
      if (!(await conversationEvents(conversationId)).some((e) => e.type === 'ExternalEventReceived'))
        throw new Error('not bound yet');
    });
    await new Promise((resolve) => setTimeout(resolve, 300));
    const session = await store.readStream(`messaging-session-${sessionId}`);
    expect(session.filter((e) => e.type === 'MessagingServiceAgentMessageSent')).toHaveLength(2); // the greeting and the answer
    expect((await conversationEvents(conversationId)).some((e) => e.type === 'DelayedResponseDelivered')).toBe(false);
  });

  it('SMS: the answer is texted to the user after the earlier ones, and recorded delivered', async () => {
    const user = newUserNumber();
    expect(
      (await sendInbound(t, sms, { from: user, to: AGENT_NUMBER, text: 'I want to pay my bill' })).status,
    ).toBeLessThan(300);
    const [first] = await delivered(t, user, 1);
    expect(first.text).toBe(KB[0].content);
    await deliver(await awaitedId(first.conversation_id, 'payment'), { amount: '7.00' });
    const texts = await delivered(t, user, 2);
    expect(texts.map((m) => [m.from, m.to, m.text])).toEqual([
      [AGENT_NUMBER, user, KB[0].content],
      [AGENT_NUMBER, user, 'Payment of 7.00 received, thank you!'],
    ]);
    expect(texts[1].conversation_id).toBe(first.conversation_id);
    await deliveredOn(first.conversation_id);
    await noMoreThan(t, user, 2);
  });

  it('SMS: an answer that ends the conversation ends its session; the next text opens a new conversation', async () => {
    const user = newUserNumber();
    await sendInbound(t, sms, { from: user, to: AGENT_NUMBER, text: 'verify my identity' });
    const [first] = await delivered(t, user, 1);
    await deliver(await awaitedId(first.conversation_id, 'id_check'));
    expect((await delivered(t, user, 2))[1].text).toBe('Identity confirmed. Goodbye!');
    await eventually(async () => {
      const ended = (await store.readStream(smsSessionStream(AGENT_NUMBER, user))).some(
        (e) => e.type === 'SmsSessionEnded',
      );
      if (!ended) throw new Error('the SMS session has not ended yet');
    });
    await sendInbound(t, sms, { from: user, to: AGENT_NUMBER, text: 'I want to pay my bill' });
    const texts = await delivered(t, user, 3);
    expect(texts[2].conversation_id).not.toBe(first.conversation_id);
    expect((await carrierMessages(t, user)).map((m) => m.text)).toEqual([
      KB[2].content,
      'Identity confirmed. Goodbye!',
      KB[0].content,
    ]);
  });
});
