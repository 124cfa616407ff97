import { eventually } from '../helpers/conversations-fixture';
import { advanceClock } from '../helpers/keys-fixtures';
import { UUID } from '../helpers/test-app';
import {
  AGENT_NUMBER,
  conversationWhen,
  delivered,
  KB,
  newUserNumber,
  noMoreThan,
  sendInbound,
  sendOutbound,
  startSmsFixture,
  type SmsFixture,
} from './sms-fixture';
import type { Json } from '../helpers/json';

const WARNING = 'Are you still there? Reply within 10 minutes to keep this conversation open.';
const DAY_S = 24 * 3600;

/** interface.md "SMS session", row by row, over HTTP on the test clock (contract §11). */
describe('SMS sessions', () => {
  let f: SmsFixture;

  beforeAll(async () => {
    f = await startSmsFixture();
  });
  afterAll(async () => f.close());

  it('none + outbound request: 202, a session whose conversation starts with the sent text as its greeting', async () => {
    const user = newUserNumber();
    const r = await sendOutbound(f, { user_number: user, message: 'Your table for two is booked for 8pm.' });
    expect(r.status).toBe(202);
    expect(r.body).toEqual({ conversation_id: expect.stringMatching(/^SMS-/), agent_number: AGENT_NUMBER });
    expect(r.body.conversation_id.slice(4)).toMatch(UUID);
    const [text] = await delivered(f.t, user, 1);
    expect(text).toMatchObject({
      conversation_id: r.body.conversation_id,
      from: AGENT_NUMBER,
      to: user,
      text: 'Your table for two is booked for 8pm.',
      status: 'delivered',
      carrier: 'embedded',
    });
    const c = await conversationWhen(f, r.body.conversation_id, (c) => expect(c.num_turns).toBe(1));
    expect(c).toMatchObject({
      channel: 'SMS',
      environment: 'sandbox',
      from_number: user,
      to_number: AGENT_NUMBER,
      in_progress: true,
    });
    expect(c.turns[0]).toMatchObject({ user_input: '', agent_response: 'Your table for two is booked for 8pm.' });
  });

  it('active + user sends SMS: the same session; the agent answers from its knowledge base', async () => {
    const user = newUserNumber();
    const out = await sendOutbound(f, { user_number: user, message: 'Hi! Any questions about your order?' });
    const reply = await sendInbound(f.t, f.connector, { from: user, text: 'can I get a refund?' });
    expect(reply.status).toBe(200);
    expect(reply.body).toEqual({ conversation_id: out.body.conversation_id, status: 'received' });
    const texts = await delivered(f.t, user, 2);
    expect(texts.map((m) => m.text)).toEqual(['Hi! Any questions about your order?', KB[1].content]);
    const c = await conversationWhen(f, out.body.conversation_id, (c) => expect(c.num_turns).toBe(2));
    expect(c.turns[1]).toMatchObject({ user_input: 'can I get a refund?', agent_response: KB[1].content });
  });

  it('none + user sends SMS to a provisioned number: a new session; its first turn answers the message', async () => {
    const user = newUserNumber();
    const r = await sendInbound(f.t, f.connector, { from: user, text: 'when are you open?' });
    expect(r.status).toBe(200);
    expect(r.body.conversation_id).toMatch(/^SMS-/);
    const [answer] = await delivered(f.t, user, 1);
    expect(answer).toMatchObject({ from: AGENT_NUMBER, to: user, text: KB[0].content });
    const c = await conversationWhen(f, r.body.conversation_id, (c) => expect(c.num_turns).toBe(1));
    expect(c).toMatchObject({
      channel: 'SMS',
      environment: 'sandbox',
      from_number: user,
      to_number: AGENT_NUMBER,
      in_progress: true,
    });
    expect(c.turns[0]).toMatchObject({ user_input: 'when are you open?', agent_response: KB[0].content });
    // and a later message joins it
    const again = await sendInbound(f.t, f.connector, { from: user, text: 'how do refunds work' });
    expect(again.body.conversation_id).toBe(r.body.conversation_id);
    await delivered(f.t, user, 2);
  });

  it('messages racing into a pair without a session open exactly one', async () => {
    const user = newUserNumber();
    const replies = await Promise.all(
      Array.from({ length: 6 }, (_, i) => sendInbound(f.t, f.connector, { from: user, text: `opening hours ${i}` })),
    );
    expect(replies.map((r) => r.status)).toEqual(Array(6).fill(200));
    expect(new Set(replies.map((r) => r.body.conversation_id)).size).toBe(1);
    await delivered(f.t, user, 6);
    await conversationWhen(f, replies[0].body.conversation_id, (c) => expect(c.num_turns).toBe(6));
  });

  it('a redelivered provider message is acknowledged and applied once', async () => {
    const user = newUserNumber();
    const first = await sendInbound(f.t, f.connector, {
      from: user,
      text: 'opening hours',
      provider_message_id: 'SM-dup-1',
    });
    const again = await sendInbound(f.t, f.connector, {
      from: user,
      text: 'opening hours',
      provider_message_id: 'SM-dup-1',
    });
    expect(again.status).toBe(200);
    expect(again.body).toEqual({ conversation_id: first.body.conversation_id, status: 'duplicate' });
    await delivered(f.t, user, 1);
    await noMoreThan(f.t, user, 1);
  });

  it("the agent's send_sms action texts the user after its answer", async () => {
    const user = newUserNumber();
    await sendInbound(f.t, f.connector, { from: user, text: 'where is my parcel' });
    const texts = await delivered(f.t, user, 2);
    expect(texts.map((m) => m.text)).toEqual([KB[3].content, 'Track it here: https://track.test/42']);
  });

  it('engaged + 24 h idle: the warning; a reply within 10 minutes keeps the session', async () => {
    const user = newUserNumber();
    const opened = await sendInbound(f.t, f.connector, { from: user, text: 'opening hours' });
    await delivered(f.t, user, 1);
    await advanceClock(f.t, DAY_S - 60);
    await noMoreThan(f.t, user, 1, 200);
    await advanceClock(f.t, 60);
    const warned = await delivered(f.t, user, 2);
    expect(warned[1]).toMatchObject({ text: WARNING, conversation_id: opened.body.conversation_id });
    await advanceClock(f.t, 9 * 60);
    const reply = await sendInbound(f.t, f.connector, { from: user, text: 'money back?' });
    expect(reply.body.conversation_id).toBe(opened.body.conversation_id);
    await delivered(f.t, user, 3);
    // the warning's timer passes without effect: the reply moved the session on
    await advanceClock(f.t, 5 * 60);
    await noMoreThan(f.t, user, 3, 200);
    const c = await conversationWhen(f, opened.body.conversation_id, (c) => expect(c.num_turns).toBe(3));
    expect(c.in_progress).toBe(true);
    expect(c.turns.map((t: Json) => t.agent_response)).toEqual([KB[0].content, WARNING, KB[1].content]);
  });

  it('warning + no reply within 10 minutes: the session ends; the next message opens a new one', async () => {
    const user = newUserNumber();
    const opened = await sendInbound(f.t, f.connector, { from: user, text: 'opening hours' });
    await delivered(f.t, user, 1);
    await advanceClock(f.t, DAY_S);
    await delivered(f.t, user, 2);
    await advanceClock(f.t, 10 * 60);
    await conversationWhen(f, opened.body.conversation_id, (c) => expect(c.in_progress).toBe(false));
    await noMoreThan(f.t, user, 2, 200);
    const next = await sendInbound(f.t, f.connector, { from: user, text: 'opening hours' });
    expect(next.status).toBe(200);
    expect(next.body.conversation_id).not.toBe(opened.body.conversation_id);
    await delivered(f.t, user, 3);
  });

  it('a session the user never replied to gets no warning (only engaged sessions idle out)', async () => {
    const user = newUserNumber();
    const out = await sendOutbound(f, { user_number: user, message: 'Your parcel has shipped.' });
    await delivered(f.t, user, 1);
    await advanceClock(f.t, 2 * DAY_S);
    await noMoreThan(f.t, user, 1, 300);
    const reply = await sendInbound(f.t, f.connector, { from: user, text: 'where is my parcel' });
    expect(reply.body.conversation_id).toBe(out.body.conversation_id);
  });

  it('each outbound request opens a new session; the one before ends', async () => {
    const user = newUserNumber();
    const first = await sendOutbound(f, { user_number: user, message: 'First notice.' });
    const second = await sendOutbound(f, { user_number: user, message: 'Second notice.' });
    expect(second.status).toBe(202);
    expect(second.body.conversation_id).not.toBe(first.body.conversation_id);
    await conversationWhen(f, first.body.conversation_id, (c) => expect(c.in_progress).toBe(false));
    const reply = await sendInbound(f.t, f.connector, { from: user, text: 'opening hours' });
    expect(reply.body.conversation_id).toBe(second.body.conversation_id);
  });

  it('an agent that ends the conversation ends the session: the next message opens a new one', async () => {
    const user = newUserNumber();
    const opened = await sendInbound(f.t, f.connector, { from: user, text: 'goodbye' });
    await delivered(f.t, user, 1);
    await conversationWhen(f, opened.body.conversation_id, (c) => expect(c.in_progress).toBe(false));
    const next = await eventually(async () => {
      const r = await sendInbound(f.t, f.connector, { from: user, text: 'opening hours' });
      expect(r.body.conversation_id).not.toBe(opened.body.conversation_id);
      return r;
    });
    expect(next.status).toBe(200);
  });
});
