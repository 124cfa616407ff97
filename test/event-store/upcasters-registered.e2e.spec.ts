import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { newTestEvent } from '../../src/event-store/event-store.contract';
import { EVENT_STORE, type EventStore } from '../../src/event-store/event-store.port';
import { SqliteEventStore } from '../../src/event-store/sqlite/sqlite-event-store';
import { startTestApp, type TestApp } from '../helpers/test-app';
import { turnV1 } from '../helpers/turn-v1';

const AT = '2026-01-01T00:00:00.000Z';
const STREAM = 'conversation-AS_CHAT_old';

const oldTurn = turnV1(0, '', 'Hello');

/** The app registers every context's upcasters on the event store it opens (src/app.upcasters.ts). */
describe('the app reads old events upcast', () => {
  let t: TestApp | undefined;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-upcast-app-'));
  afterAll(async () => {
    await t?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('a version 1 TurnRecorded in the log reads back as version 2 through the app', async () => {
    const old = await SqliteEventStore.open({ file: path.join(dir, 'events.sqlite'), sync: 'normal' });
    await old.append(
      STREAM,
      [
        newTestEvent('ConversationStarted', {
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
        }),
        newTestEvent('TurnRecorded', oldTurn),
      ],
      'no_stream',
    );
    await old.close();

    t = await startTestApp({}, dir);
    const [, turn] = await t.app.get<EventStore>(EVENT_STORE).readStream(STREAM);
    expect(turn.metadata.schemaVersion).toBe(2);
    expect(turn.data).toMatchObject({ turnIndex: 0, apiErrors: 0 });
  });
});
