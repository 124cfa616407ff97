import fs from 'node:fs';
import path from 'node:path';
import type { Json } from '../helpers/json';
import { op, operatorKey } from '../helpers/keys-fixtures';
import { projectionsCli } from '../helpers/projections-cli';
import { rebuildReadModel } from '../helpers/rebuild-read-model';
import { request } from '../helpers/test-app';
import {
  accessToken,
  ChatClient,
  createConnector,
  DeskClient,
  KB as CHAT_KB,
  type WireEvent,
} from '../messaging/messaging-fixture';
import {
  AGENT_NUMBER,
  carrierMessages,
  conversation,
  conversationWhen,
  delivered,
  newUserNumber,
  sendInbound,
  sendOutbound,
  startSmsFixture,
  type SmsFixture,
} from '../sms/sms-fixture';

/**
 * Erasure (contract §24) of conversations that run over a channel's session: web chat (the session
 * stream a reconnecting client replays) and SMS (the number pair's session stream, the texts the
 * carrier took, the outbox). Each erased conversation has a kept twin of the same channel, an SMS
 * one on the very same number pair, so every check here fails if erasure touched nothing, or
 * everything. Every file under DATA_DIR is read byte by byte afterwards.
 */

const CHAT_SAID = 'my name is Quillonia Marzipanova';
const CHAT_NOTE = 'Barnaby-Xylograph-5512';
const KEPT_CHAT_SAID = 'my name is Orlandino Peppercorn';
const SMS_GREETING = 'Hello Ravenna Blistercup, your table for two is booked.';
const SMS_SAID = 'my name is Hortensio Glimmerdash';
const KEPT_SMS_GREETING = 'Hello Clementine Saltmarsh, your order has shipped.';
const KEPT_SMS_SAID = 'my name is Fitzgerald Marmalade';
/** Said to a human at the desk, then in the same session's next conversation after the human left. */
const DESK_SAID = 'my name is Peregrine Wolfsbane';
const DESK_ANSWER = 'Hello Peregrine, Dana here.';
const DESK_KEPT_SAID = 'my name is Tobiah Quenelle';
const ERASED_WORDS = ['Quillonia', CHAT_NOTE, 'Ravenna', 'Hortensio', 'Peregrine'];
/** Kept words a read model stores (a message to a human is on the session's sealed stream alone). */
const KEPT_WORDS = ['Orlandino', 'Clementine', 'Fitzgerald'];
/** With READ_MODEL_DB=postgres the read models (and the key store) live in PostgreSQL: DATA_DIR holds the sealed log alone. */
const readModelsInFiles = process.env.READ_MODEL_DB !== 'postgres';

interface WebChat {
  sessionId: string;
  conversationId: string;
}

describe('erasure of web chat and SMS conversations (contract §24)', () => {
  let f: SmsFixture;
  let bearer: string;
  let chat: WebChat;
  let keptChat: WebChat;
  let user: string;
  let sms: string;
  let keptSms: string;
  let desk: DeskClient;
  let handedOff: { sessionId: string; erased: string; kept: string; user: ChatClient };

  const erase = (id: string) =>
    request(`${f.t.url}/v3/${f.account.accountId}/${f.agentId}/conversations/${id}/personal-data`, {
      method: 'DELETE',
      headers: { 'x-api-key': f.account.key },
    });

  const newSession = async (): Promise<string> => {
    const created = await request(`${f.t.url}/api/v1/sessions`, {
      body: {},
      headers: { authorization: `Bearer ${bearer}` },
    });
    expect(created.status).toBe(200);
    return created.body.session_id as string;
  };

  /** join, then a handoff to the desk: the conversation the session now runs */
  const joinAndHandOff = async (client: ChatClient): Promise<string> => {
    client.send({ type: 'EVENT_TYPE_REQUEST_SERVICE_AGENT_JOIN' });
    const conversationId = (await client.next('EVENT_TYPE_SERVICE_AGENT_JOINED')).payload.conversation_id as string;
    client.send({ type: 'EVENT_TYPE_USER_MESSAGE', payload: { text: 'human agent please' } });
    await client.next('EVENT_TYPE_SERVICE_AGENT_TRIGGERED_HANDOFF');
    return conversationId;
  };

  /** A web chat session: join, then one message (with custom metadata), answered. */
  const webChat = async (said: string, custom?: Json): Promise<WebChat> => {
    const sessionId = await newSession();
    const client = await ChatClient.open(f.t.url, sessionId, bearer);
    try {
      await client.next('EVENT_TYPE_EVENT_BATCH');
      client.send({ type: 'EVENT_TYPE_REQUEST_SERVICE_AGENT_JOIN' });
      const joined = await client.next('EVENT_TYPE_SERVICE_AGENT_JOINED');
      await client.next('EVENT_TYPE_SERVICE_AGENT_MESSAGE');
      client.send({
        type: 'EVENT_TYPE_USER_MESSAGE',
        payload: { text: said },
        ...(custom ? { metadata: { custom } } : {}),
      });
      await client.next('EVENT_TYPE_USER_MESSAGE');
      await client.next('EVENT_TYPE_SERVICE_AGENT_MESSAGE');
      return { sessionId, conversationId: joined.payload.conversation_id as string };
    } finally {
      client.close();
    }
  };

  /** What a client reconnecting to the session is replayed: every stored event. */
  const replayed = async (sessionId: string): Promise<WireEvent[]> => {
    const client = await ChatClient.open(f.t.url, sessionId, bearer);
    try {
      return (await client.next('EVENT_TYPE_EVENT_BATCH')).payload.events as WireEvent[];
    } finally {
      client.close();
    }
  };

  /** Files under DATA_DIR whose bytes hold `text` (the log's WAL and read models' included). */
  const filesHolding = (text: string): string[] => {
    const needle = Buffer.from(text);
    const out: string[] = [];
    const walk = (dir: string) => {
      for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
        const full = path.join(dir, entry.name);
        if (entry.isDirectory()) walk(full);
        else if (fs.readFileSync(full).includes(needle)) out.push(path.relative(f.t.dataDir, full));
      }
    };
    walk(f.t.dataDir);
    return out;
  };

  beforeAll(async () => {
    f = await startSmsFixture();
    // the same agent on web chat: a connector for example.com, in the environment its SMS number maps to
    const connector = await createConnector(f.t, f.account.accountId, f.agentId, 'sandbox', 'example.com');
    const issued = await accessToken(f.t, { 'X-Token': connector.connectorToken, 'X-Host': 'shop.example.com' });
    expect(issued.status).toBe(200);
    bearer = issued.body.access_token;
    await f.api.shipChange(f.agentId, 'handoff', (branchId) =>
      f.api.addTopic(
        f.agentId,
        branchId,
        CHAT_KB.find((t) => t.name === 'Speak to a human')!,
      ),
    );
    const deskKey = (await operatorKey(f.t, f.account.accountId, { name: 'Dana', permissions: ['desk'] })).key;
    desk = await DeskClient.open(f.t.url, deskKey, 'Dana');
    await desk.next((m) => m.type === 'DESK_READY');
    chat = await webChat(CHAT_SAID, { note: CHAT_NOTE });
    keptChat = await webChat(KEPT_CHAT_SAID);

    // one number pair, two conversations one after the other: the second outbound text replaces the first session
    user = newUserNumber();
    const first = await sendOutbound(f, { user_number: user, message: SMS_GREETING });
    expect(first.status).toBe(202);
    sms = first.body.conversation_id;
    expect((await sendInbound(f.t, f.connector, { from: user, text: SMS_SAID })).body.conversation_id).toBe(sms);
    await conversationWhen(f, sms, (c) => expect(c.num_turns).toBe(2));
    await delivered(f.t, user, 2);
    const second = await sendOutbound(f, { user_number: user, message: KEPT_SMS_GREETING });
    keptSms = second.body.conversation_id;
    expect(keptSms).not.toBe(sms);
    expect((await sendInbound(f.t, f.connector, { from: user, text: KEPT_SMS_SAID })).body.conversation_id).toBe(
      keptSms,
    );
    await conversationWhen(f, keptSms, (c) => expect(c.num_turns).toBe(2));
    await delivered(f.t, user, 4);

    // one web chat session, two conversations: the first handed to a human who answers and leaves, then a second
    const deskSession = await newSession();
    const deskUser = await ChatClient.open(f.t.url, deskSession, bearer);
    await deskUser.next('EVENT_TYPE_EVENT_BATCH');
    const handedOffFirst = await joinAndHandOff(deskUser);
    deskUser.send({ type: 'EVENT_TYPE_USER_MESSAGE', payload: { text: DESK_SAID } });
    await deskUser.next('EVENT_TYPE_USER_MESSAGE', (e) => e.payload.text === DESK_SAID);
    desk.send({ type: 'ACCEPT', session_id: deskSession });
    const accepted = await desk.next((m) => m.type === 'SESSION_ACCEPTED' && m.session_id === deskSession);
    expect(JSON.stringify(accepted.history)).toContain(DESK_SAID);
    desk.send({ type: 'MESSAGE', session_id: deskSession, text: DESK_ANSWER });
    await deskUser.next('EVENT_TYPE_LIVE_AGENT_MESSAGE', (e) => e.payload.text === DESK_ANSWER);
    desk.send({ type: 'LEAVE', session_id: deskSession });
    await deskUser.next('EVENT_TYPE_LIVE_AGENT_LEFT');
    const handedOffSecond = await joinAndHandOff(deskUser);
    expect(handedOffSecond).not.toBe(handedOffFirst);
    deskUser.send({ type: 'EVENT_TYPE_USER_MESSAGE', payload: { text: DESK_KEPT_SAID } });
    await deskUser.next('EVENT_TYPE_USER_MESSAGE', (e) => e.payload.text === DESK_KEPT_SAID);
    handedOff = { sessionId: deskSession, erased: handedOffFirst, kept: handedOffSecond, user: deskUser };

    // before: the log holds every text sealed, nowhere in clear
    for (const word of [...ERASED_WORDS, ...KEPT_WORDS, 'Tobiah'])
      expect(filesHolding(word).filter((file) => file.startsWith('events.sqlite'))).toEqual([]);
    expect((await erase(chat.conversationId)).status).toBe(204);
    expect((await erase(sms)).status).toBe(204);
    expect((await erase(handedOff.erased)).status).toBe(204);
  });
  afterAll(async () => {
    handedOff?.user.close();
    desk?.close();
    await f?.close();
  });

  it('replays the erased web chat session with its messages erased, and the other session whole', async () => {
    const events = await replayed(chat.sessionId);
    const user = events.find((e) => e.type === 'EVENT_TYPE_USER_MESSAGE')!;
    expect(user.payload.text).toBe('[erased]');
    expect(user.metadata).toEqual({ custom: {} });
    const answers = events.filter((e) => e.type === 'EVENT_TYPE_SERVICE_AGENT_MESSAGE');
    expect(answers.map((e) => e.payload.text)).toEqual(['[erased]', '[erased]']);
    // what is not personal stays: the session, the join, the conversation it names
    expect(events.find((e) => e.type === 'EVENT_TYPE_SERVICE_AGENT_JOINED')!.payload.conversation_id).toBe(
      chat.conversationId,
    );
    expect(JSON.stringify(events)).not.toContain('Quillonia');
    const kept = await replayed(keptChat.sessionId);
    expect(kept.find((e) => e.type === 'EVENT_TYPE_USER_MESSAGE')!.payload.text).toBe(KEPT_CHAT_SAID);
  });

  it("shows the desk a session's erased conversation erased, and its next conversation whole", async () => {
    desk.send({ type: 'ACCEPT', session_id: handedOff.sessionId });
    const accepted = await desk.next((m) => m.type === 'SESSION_ACCEPTED' && m.session_id === handedOff.sessionId);
    const history = accepted.history as WireEvent[];
    const texts = history.filter((e) => e.payload.text !== undefined).map((e) => [e.type, e.payload.text]);
    expect(texts).toContainEqual(['EVENT_TYPE_LIVE_AGENT_MESSAGE', '[erased]']);
    expect(texts.filter(([, text]) => text === '[erased]').length).toBeGreaterThanOrEqual(4);
    expect(texts).toContainEqual(['EVENT_TYPE_USER_MESSAGE', DESK_KEPT_SAID]);
    expect(JSON.stringify(history)).not.toContain('Peregrine');
    // the user reconnecting is replayed the same
    const replay = await replayed(handedOff.sessionId);
    expect(JSON.stringify(replay)).not.toContain('Peregrine');
    expect(JSON.stringify(replay)).toContain(DESK_KEPT_SAID);
  });

  it('shows the erased conversations [erased] through the Conversations API, the kept ones whole', async () => {
    const texts = async (id: string) =>
      ((await conversation(f, id)).body.turns as Json[]).map((t) => [t.user_input, t.agent_response]);
    expect((await texts(chat.conversationId)).flat().filter(Boolean)).toEqual(Array(3).fill('[erased]'));
    expect((await texts(keptChat.conversationId))[1][0]).toBe(KEPT_CHAT_SAID);
    expect(await texts(sms)).toEqual([
      ['', '[erased]'],
      ['[erased]', '[erased]'],
    ]);
    const keptTurns = await texts(keptSms);
    expect(keptTurns[0]).toEqual(['', KEPT_SMS_GREETING]);
    expect(keptTurns[1][0]).toBe(KEPT_SMS_SAID);
  });

  it("lists no erased text among the carrier's messages; the same pair's next conversation keeps its own", async () => {
    const all = await request(`${f.t.url}/admin/v1/sms/messages?number=${encodeURIComponent(AGENT_NUMBER)}`, {
      headers: op(f.t),
    });
    expect(all.status).toBe(200);
    const erasedTexts = (all.body.messages as Json[]).filter((m) => m.conversation_id === sms);
    expect(erasedTexts.map((m) => [m.text, m.to])).toEqual([
      ['[erased]', '[erased]'],
      ['[erased]', '[erased]'],
    ]);
    const toUser = await carrierMessages(f.t, user);
    expect(toUser.map((m) => m.conversation_id)).toEqual([keptSms, keptSms]);
    expect(toUser[0].text).toBe(KEPT_SMS_GREETING);
  });

  it('leaves no file under DATA_DIR holding an erased text, and the kept ones on disk', async () => {
    for (const word of ERASED_WORDS) expect({ word, files: filesHolding(word) }).toEqual({ word, files: [] });
    if (readModelsInFiles) for (const word of KEPT_WORDS) expect(filesHolding(word).length).toBeGreaterThan(0);
  });

  it('reads the same after a rebuild: the scrubbed rows are what the log now yields', async () => {
    const verify = await projectionsCli(f.t, ['verify', 'sms-sessions']);
    expect(verify.text).toContain('OK: the read model equals a fresh replay');
    expect(verify.code).toBe(0);
    const before = await carrierMessages(f.t, AGENT_NUMBER);
    await rebuildReadModel(f.t, 'sms-sessions');
    await rebuildReadModel(f.t, 'conversations');
    expect(await carrierMessages(f.t, AGENT_NUMBER)).toEqual(before);
    expect(((await conversation(f, sms)).body.turns as Json[])[1].user_input).toBe('[erased]');
    expect(((await conversation(f, keptSms)).body.turns as Json[])[1].user_input).toBe(KEPT_SMS_SAID);
    for (const word of ERASED_WORDS) expect({ word, files: filesHolding(word) }).toEqual({ word, files: [] });
  });

  it("goes on with the pair's kept conversation: the next text is answered there and reads whole", async () => {
    const r = await sendInbound(f.t, f.connector, { from: user, text: 'when are you open' });
    expect(r.body.conversation_id).toBe(keptSms);
    const turns = (await conversationWhen(f, keptSms, (c) => expect(c.num_turns).toBe(3))).turns as Json[];
    expect(turns.map((t) => t.user_input)).toEqual(['', KEPT_SMS_SAID, 'when are you open']);
    expect((await delivered(f.t, user, 3)).map((m) => m.conversation_id)).toEqual([keptSms, keptSms, keptSms]);
  });
});
