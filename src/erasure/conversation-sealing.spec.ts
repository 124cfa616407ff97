import { randomBytes } from 'node:crypto';
import type { NewEvent, RecordedEvent } from '../event-store/event-store.port';
import type { ConversationKey, ConversationKeyStore } from './conversation-keys';
import { ConversationSealing } from './conversation-sealing';

/** An in-memory key store: the SQLite and PostgreSQL ones are tested through the erasure e2e. */
class MemoryKeys implements ConversationKeyStore {
  readonly keys = new Map<string, ConversationKey>();
  find(ids: readonly string[]) {
    return Promise.resolve(new Map(ids.filter((id) => this.keys.has(id)).map((id) => [id, this.keys.get(id)!])));
  }
  create(id: string) {
    if (!this.keys.has(id)) this.keys.set(id, randomBytes(32));
    return Promise.resolve(this.keys.get(id)!);
  }
  erase(id: string) {
    const had = Buffer.isBuffer(this.keys.get(id));
    this.keys.set(id, 'erased');
    return Promise.resolve(had);
  }
  close() {
    return Promise.resolve();
  }
}

const METADATA = {
  schemaVersion: 1,
  actor: 't',
  correlationId: 't',
  causationId: null,
  occurredAt: '2026-12-07T00:00:00Z',
};
const turn = (id: string, userInput: string): NewEvent => ({
  id,
  type: 'TurnRecorded',
  data: {
    turnIndex: 1,
    userInput,
    agentResponse: 'Sure — ça coûte 5 €',
    citedTopic: 'refunds',
    entities: { email: 'a@b.c' },
  },
  metadata: METADATA,
});
const recorded = (streamId: string, event: NewEvent, revision = 0): RecordedEvent => ({
  ...event,
  streamId,
  revision: BigInt(revision),
  position: '0000000000000001:0000000000000001' as RecordedEvent['position'],
});

describe('ConversationSealing', () => {
  it('stores personal fields only inside the box and opens them whole, multi-byte text included', async () => {
    const keys = new MemoryKeys();
    const [sealed] = await new ConversationSealing(keys).seal('conversation-C1', [
      turn('e1', 'mon e-mail: zoë@example.fr 🙂'),
    ]);
    const stored = JSON.stringify(sealed.data);
    expect(stored).not.toContain('zoë');
    expect(stored).not.toContain('a@b.c');
    expect(stored).toContain('"citedTopic":"refunds"');
    // a fresh instance: the key comes from the store, as in another process
    const [opened] = await new ConversationSealing(keys).open([recorded('conversation-C1', sealed)]);
    expect(opened.data).toEqual(turn('e1', 'mon e-mail: zoë@example.fr 🙂').data);
  });

  it('reads erased after the key is destroyed, and a moved or altered box reads erased too', async () => {
    const keys = new MemoryKeys();
    const sealing = new ConversationSealing(keys);
    const [a] = await sealing.seal('conversation-C1', [turn('e1', 'first')]);
    const [b] = await sealing.seal('conversation-C1', [turn('e2', 'second')]);
    // b's box put into a's event: bound to its event, it does not open there
    const moved = { ...a, data: { ...(a.data as object), sealed: (b.data as { sealed: unknown }).sealed } };
    const [opened] = await new ConversationSealing(keys).open([recorded('conversation-C1', moved)]);
    expect(opened.data).toMatchObject({
      userInput: '[erased]',
      agentResponse: '[erased]',
      entities: {},
      citedTopic: 'refunds',
    });
    await keys.erase('C1');
    const [erased] = await new ConversationSealing(keys).open([recorded('conversation-C1', a)]);
    expect(erased.data).toMatchObject({ userInput: '[erased]', entities: {}, turnIndex: 1 });
    expect(erased.data).not.toHaveProperty('sealed');
  });

  it('leaves events without personal data, and streams of no conversation, as they are', async () => {
    const keys = new MemoryKeys();
    const sealing = new ConversationSealing(keys);
    const other = turn('e1', 'hello');
    expect(await sealing.seal('agent-A1', [other])).toEqual([other]);
    const ended: NewEvent = { id: 'e2', type: 'ConversationEnded', data: { reason: 'done' }, metadata: METADATA };
    expect(await sealing.seal('conversation-C2', [ended])).toEqual([ended]);
    expect(keys.keys.size).toBe(0);
  });

  describe("a channel's session streams", () => {
    const PAIR = 'sms-session-+15550001-+15559999';
    const inbound = (id: string, conversationId: string, text: string): NewEvent => ({
      id,
      type: 'SmsUserMessageReceived',
      data: { conversationId, text, providerMessageId: `p-${id}`, receivedAt: '2026-12-07T00:00:00Z', generation: 1 },
      metadata: METADATA,
    });

    it("seal each event under the key of the conversation it names, so erasing one leaves the pair's others", async () => {
      const keys = new MemoryKeys();
      const sealing = new ConversationSealing(keys);
      const stored = await sealing.seal(PAIR, [inbound('e1', 'SMS-1', 'I am Ada'), inbound('e2', 'SMS-2', 'I am Bo')]);
      expect(JSON.stringify(stored)).not.toMatch(/Ada|Bo\b/);
      expect(stored[0].data).toMatchObject({ conversationId: 'SMS-1', providerMessageId: 'p-e1' });
      expect([...keys.keys.keys()].sort()).toEqual(['SMS-1', 'SMS-2']);
      await keys.erase('SMS-1');
      const opened = await new ConversationSealing(keys).open(stored.map((e, i) => recorded(PAIR, e, i)));
      expect(opened.map((e) => (e.data as { text: string }).text)).toEqual(['[erased]', 'I am Bo']);
    });

    it('seal web chat messages, their custom metadata and suggestions too; a message of no conversation stays clear', async () => {
      const keys = new MemoryKeys();
      const sealing = new ConversationSealing(keys);
      const SESSION = 'messaging-session-s1';
      const said: NewEvent = {
        id: 'e1',
        type: 'MessagingUserMessageReceived',
        data: { messageId: 'm1', text: 'I am Ada', custom: { card: '4111' }, conversationId: 'WEBCHAT-1', at: 'T' },
        metadata: METADATA,
      };
      const answered: NewEvent = {
        id: 'e2',
        type: 'MessagingServiceAgentMessageSent',
        data: { messageId: 'm2', text: 'Hi Ada', responseSuggestions: ['Ada?'], conversationId: 'WEBCHAT-1', at: 'T' },
        metadata: METADATA,
      };
      const older: NewEvent = { ...said, id: 'e3', data: { messageId: 'm3', text: 'before', at: 'T' } };
      const stored = await sealing.seal(SESSION, [said, answered, older]);
      expect(JSON.stringify(stored.slice(0, 2))).not.toMatch(/Ada|4111/);
      expect(stored[2]).toBe(older);
      const reader = new ConversationSealing(keys);
      const events = stored.map((e, i) => recorded(SESSION, e, i));
      expect((await reader.open(events)).map((e) => e.data)).toEqual([said.data, answered.data, older.data]);
      // another process erases: this one drops its cached key when it reads ConversationErased
      await keys.erase('WEBCHAT-1');
      const erasure: NewEvent = { id: 'e4', type: 'ConversationErased', data: { erasedAt: 'T' }, metadata: METADATA };
      await reader.open([recorded('conversation-WEBCHAT-1', erasure)]);
      const [user, agent] = await reader.open(events);
      expect(user.data).toEqual({
        messageId: 'm1',
        text: '[erased]',
        custom: {},
        conversationId: 'WEBCHAT-1',
        at: 'T',
      });
      expect(agent.data).toMatchObject({ text: '[erased]', responseSuggestions: [] });
      // and a late message of the erased conversation is stored erased, never under a new key
      const [late] = await reader.seal(SESSION, [{ ...said, id: 'e5' }]);
      expect(late.data).toMatchObject({ text: '[erased]', custom: {} });
    });

    it('leave an inbound session opening (no greeting) as it is', async () => {
      const keys = new MemoryKeys();
      const opened: NewEvent = {
        id: 'e1',
        type: 'SmsSessionOpened',
        data: { conversationId: 'SMS-1', agentNumber: '+1', userNumber: '+2', greeting: null },
        metadata: METADATA,
      };
      expect(await new ConversationSealing(keys).seal(PAIR, [opened])).toEqual([opened]);
      expect(keys.keys.size).toBe(0);
    });
  });
});
