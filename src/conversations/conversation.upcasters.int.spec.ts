import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { newTestEvent } from '../event-store/event-store.contract';
import { ALL_UPCASTERS } from '../app.upcasters';
import { openEventStore } from '../event-store/open-event-store';
import { Upcasters } from '../event-store/upcasting';
import { SqliteEventStore } from '../event-store/sqlite/sqlite-event-store';
import { ManualClock } from '../platform/clock/clock';
import { Commands } from '../commands/commands';
import { conversationDecider } from './conversation.decider';
import { conversationStream, type TurnData } from './conversation.events';
import { turnV1 } from '../../test/helpers/turn-v1';

const AT = '2026-01-01T00:00:00.000Z';
const started = {
  conversationId: 'AS_CHAT_old',
  accountId: 'acc',
  agentId: 'ag',
  deploymentId: 'dep',
  version: 1,
  environment: 'sandbox',
  channel: 'CHAT',
  fromNumber: '',
  toNumber: '',
  variantId: '',
  variantName: '',
  language: 'en-GB',
  startedAt: AT,
};
const turn = turnV1;

describe('TurnRecorded 1 → 2 (the worked example of docs/recipes.md)', () => {
  let dir: string;
  beforeEach(() => (dir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-upcast-turn-'))));
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('a version 1 turn stored without apiErrors reads back as version 2 with 0; the stored event is unchanged', async () => {
    const stream = conversationStream('AS_CHAT_old');
    // As a build before the LLM adapter wrote it: schema version 1, no apiErrors.
    const old = await SqliteEventStore.open({ file: path.join(dir, 'events.sqlite'), sync: 'normal' });
    await old.append(
      stream,
      [
        newTestEvent('ConversationStarted', started),
        newTestEvent('TurnRecorded', turn(0, '')),
        newTestEvent('TurnRecorded', { ...turn(1, 'hi'), apiErrors: 3 }),
      ],
      'no_stream',
    );
    await old.close();

    const store = await openEventStore({ dataDir: dir, eventStoreSync: 'normal' }, new Upcasters(ALL_UPCASTERS));
    try {
      const [, greeting, later] = await store.readStream(stream);
      expect(greeting.metadata.schemaVersion).toBe(2);
      expect(greeting.data).toMatchObject({ turnIndex: 0, apiErrors: 0 });
      // a version 1 turn that already carried the field keeps its value
      expect(later.data).toMatchObject({ turnIndex: 1, apiErrors: 3 });
      expect(
        (await store.readAll()).filter((e) => e.type === 'TurnRecorded').map((e) => (e.data as TurnData).apiErrors),
      ).toEqual([0, 3]);

      // The decider folds the upcast history and records the next turn in the current version.
      const next = { ...turn(0, 'again'), apiErrors: 1 };
      await new Commands(store, new ManualClock(Date.parse(AT))).for(conversationDecider).handle(
        stream,
        {
          type: 'RecordTurn',
          turn: next,
          effects: { stateChanges: {}, metrics: [], awaited: [], handoff: null, ended: false },
        },
        { actor: 'test', correlationId: 'c' },
      );
    } finally {
      await store.close();
    }

    const raw = await SqliteEventStore.open({ file: path.join(dir, 'events.sqlite'), sync: 'normal' });
    try {
      const stored = await raw.readStream(stream);
      expect(stored[1].metadata.schemaVersion).toBe(1);
      expect(stored[1].data).not.toHaveProperty('apiErrors');
      expect(stored[3].metadata.schemaVersion).toBe(2);
      expect(stored[3].data).toMatchObject({ turnIndex: 2, userInput: 'again', apiErrors: 1 });
    } finally {
      await raw.close();
    }
  });
});
