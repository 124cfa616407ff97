import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { onPlatform } from '../helpers/app-database';
import { advanceClock } from '../helpers/keys-fixtures';
import { conversationWhen, delivered, newUserNumber, noMoreThan, sendInbound, startSmsFixture } from './sms-fixture';
import { AppProcess } from '../helpers/app-process';
import { APP_PROCESS_TEST_TIMEOUT_MS } from '../support/patience';
import type { Json } from '../helpers/json';

/**
 * SMS session timers and the outbox survive a crash: the app runs in a child process, is killed
 * with SIGKILL after a user's message was answered, and a new process on the same data dir sends
 * the idle warning after 24 h and ends the session 10 min later, on its platform clock, without
 * repeating the answer even when its process manager replays the log.
 */

const OPERATOR_TOKEN = 'sms-restart-operator-token-0123456789';

const startChild = (dataDir: string) => AppProcess.start({ DATA_DIR: dataDir, OPERATOR_TOKEN, PARLEY_TEST_CLOCK: '1' });

describe('SMS sessions across a kill -9', () => {
  let dir: string;
  const children: AppProcess[] = [];

  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-sms-'));
  });
  afterEach(async () => {
    for (const child of children.splice(0)) await child.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it(
    'a new process sends the warning after 24 h idle and ends the session after 10 min, repeating nothing',
    async () => {
      const first = await startChild(dir);
      children.push(first);
      const f = await startSmsFixture({}, first.t);
      const user = newUserNumber();
      const opened = await sendInbound(first.t, f.connector, { from: user, text: 'when are you open?' });
      expect(opened.status).toBe(200);
      const [answer] = await delivered(first.t, user, 1);

      expect(await first.kill()).toEqual({ code: null, signal: 'SIGKILL' });

      // as if the crash came before the process manager saved its checkpoint: the log is replayed
      // the idle timer is durable: it waits in the platform database, 24 h after the message
      const { rows: timers } = await onPlatform<{ due_at: string }>(
        dir,
        "SELECT due_at FROM timer WHERE owner = 'sms-session' AND status = 'pending'",
      );
      expect(timers).toHaveLength(1);
      expect((await onPlatform(dir, "DELETE FROM process_checkpoint WHERE name = 'sms-sessions'")).changes).toBe(1);

      const second = await startChild(dir);
      children.push(second);
      const t = second.t;
      expect(await noMoreThan(t, user, 1, 800)).toEqual([answer]);
      const fx = { ...f, t };
      await conversationWhen(fx, opened.body.conversation_id, (c) => expect(c.num_turns).toBe(1));

      // The new process's manual clock starts at its own start, later than the first's by however
      // long the restart took: move it to 5 s before the stored due time, not by a fixed 24 h.
      const now = await advanceClock(t, 0);
      await advanceClock(t, (Date.parse(timers[0].due_at) - now) / 1000 - 5);
      await noMoreThan(t, user, 1, 300);
      await advanceClock(t, 5);
      const warned = await delivered(t, user, 2);
      expect(warned[1].text).toMatch(/^Are you still there\?/);
      await advanceClock(t, 10 * 60);
      const ended = await conversationWhen(fx, opened.body.conversation_id, (c) => expect(c.in_progress).toBe(false));
      expect(ended.turns.map((turn: Json) => turn.user_input)).toEqual(['when are you open?', '']);
      await noMoreThan(t, user, 2, 300);
    },
    APP_PROCESS_TEST_TIMEOUT_MS,
  );
});
