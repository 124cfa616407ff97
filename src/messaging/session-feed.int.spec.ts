import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { SqliteEventStore } from '../event-store/sqlite/sqlite-event-store';
import { ManualClock } from '../platform/clock/clock';
import { toNewEvents } from '../commands/command-handler';
import { SessionFeed } from './session-feed';
import type { WireEvent } from './wire';

/** Two stores on one file are two API processes: events appended by one reach the other's sockets. */
describe('session feed across processes', () => {
  let dir: string;
  let a: SqliteEventStore;
  let b: SqliteEventStore;
  const clock = new ManualClock(Date.parse('2026-03-01T10:00:00Z'));
  const context = { actor: 'test', correlationId: 'c' };

  beforeEach(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-feed-'));
    const file = path.join(dir, 'events.sqlite');
    a = await SqliteEventStore.open({ file, sync: 'normal', writer: 'inline', pollIntervalMs: 20 });
    b = await SqliteEventStore.open({ file, sync: 'normal', writer: 'inline', pollIntervalMs: 20 });
  });
  afterEach(async () => {
    await a.close();
    await b.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it("delivers another process's session events in sequence order, and nothing else", async () => {
    await a.append(
      'messaging-session-old',
      toNewEvents(
        [{ type: 'MessagingSessionEnded', data: { reason: 'REASON_USER_END', at: clock.nowIso() } }],
        context,
        clock,
      ),
    );
    const feed = new SessionFeed(b, pino({ level: 'silent' }));
    const got: Array<[string, WireEvent[]]> = [];
    feed.onEvents((sessionId, events) => got.push([sessionId, events]));
    await feed.start();
    try {
      const at = clock.nowIso();
      await a.append('conversation-x', toNewEvents([{ type: 'TurnRecorded', data: {} }], context, clock));
      await a.append(
        'messaging-session-s1',
        toNewEvents(
          [
            { type: 'MessagingSessionStarted', data: { sessionId: 's1', capabilities: {}, at } },
            { type: 'MessagingUserMessageReceived', data: { messageId: 'm', text: 'hi', at } },
          ],
          context,
          clock,
        ),
      );
      await a.append(
        'messaging-session-s1',
        toNewEvents(
          [
            {
              type: 'MessagingServiceAgentMessageSent',
              data: { messageId: 'r', text: 'hello', responseSuggestions: [], at },
            },
          ],
          context,
          clock,
        ),
      );
      for (let i = 0; i < 100 && got.flatMap(([, e]) => e).length < 3; i++)
        await new Promise((resolve) => setTimeout(resolve, 10));
      expect(got.map(([id]) => id).every((id) => id === 's1')).toBe(true);
      expect(got.flatMap(([, events]) => events.map((e) => [e.sequence, e.type]))).toEqual([
        [1, 'EVENT_TYPE_SESSION_START'],
        [2, 'EVENT_TYPE_USER_MESSAGE'],
        [3, 'EVENT_TYPE_SERVICE_AGENT_MESSAGE'],
      ]);
    } finally {
      await feed.stop();
    }
  });
});
