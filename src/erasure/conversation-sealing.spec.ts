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
});
