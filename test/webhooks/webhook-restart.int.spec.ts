import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { AgentsClient, createAccount } from '../helpers/agents-fixture';
import { onPlatform } from '../helpers/app-database';
import { AppProcess } from '../helpers/app-process';
import {
  advanceClock,
  buildAgent,
  platformNow,
  startChat,
  type ConversationsFixture,
} from '../helpers/conversations-fixture';
import { withKey } from '../helpers/keys-fixtures';
import { request, type TestApp } from '../helpers/test-app';
import { expectSigned, Receiver, waitForAttempts } from './receiver';
import { APP_PROCESS_TEST_TIMEOUT_MS } from '../support/patience';
import type { Json } from '../helpers/json';

/**
 * Deliveries survive a crash (contract §13): the app runs in a child process on a data dir, is
 * killed with SIGKILL while a delivery waits for its next attempt, and a new process on the same
 * dir sends it when due on the platform clock, exactly once, and never again after the 2xx.
 */

const OPERATOR_TOKEN = 'restart-operator-token-0123456789';

/** A process on the data dir, on the manual clock, sending webhooks to loopback http. */
const startApp = (dataDir: string) =>
  AppProcess.start({
    DATA_DIR: dataDir,
    OPERATOR_TOKEN,
    PARLEY_TEST_CLOCK: '1',
    WEBHOOK_ALLOW_HTTP: '1',
    DEBUG_CHAT_TIMEOUT_S: '86400',
  });

describe('webhook deliveries across a kill -9', () => {
  const children: AppProcess[] = [];
  let dir: string;
  let receiver: Receiver;

  const start = async () => {
    const child = await startApp(dir);
    children.push(child);
    return child;
  };
  const deliveries = async (t: TestApp, key: string, endpointId: string) => {
    const r = await request(`${t.url}/v1/webhook-endpoints/${endpointId}/deliveries`, { headers: withKey(key) });
    expect(r.status).toBe(200);
    return r.body.data as Json[];
  };

  beforeEach(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-webhooks-'));
    receiver = await Receiver.start();
  });

  afterEach(async () => {
    await Promise.all(children.splice(0).map((child) => child.stop()));
    await receiver.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it(
    'killed while a delivery waits for its third attempt: a new process sends it when due, once, and never after the 2xx',
    async () => {
      receiver.answer(500, 500);
      receiver.fallback = 200;

      // First process: a conversation starts; its delivery fails twice (at +0 and +1 m).
      const first = await start();
      const account = await createAccount(first.t, 'Restart Co', ['agents', 'alerts', 'keys']);
      const f = {
        t: first.t,
        accountId: account.accountId,
        accountSlug: account.accountSlug,
        api: new AgentsClient(first.t, account),
        adminKey: account.key,
        close: async () => undefined,
      } as ConversationsFixture;
      const agentId = await buildAgent(f, 'Restart bot', 'Hello!', [
        { name: 'Hours', content: 'We open at nine.', queries: ['when do you open'] },
      ]);
      // Started before the endpoint existed: never its to receive, not even when the log is replayed
      // below with the endpoint in place (who listens is judged at the event's log position).
      await startChat(f, agentId);
      const created = await request(`${first.t.url}/v1/webhook-endpoints`, {
        body: { url: receiver.url, event_types: ['conversation.started'] },
        headers: withKey(account.key),
      });
      expect(created.status).toBe(201);
      const endpoint = created.body as { id: string; signing_secret: string };
      const conversationId = await startChat(f, agentId);
      await receiver.waitFor(1);
      await advanceClock(first.t, 60);
      await receiver.waitFor(2);
      const waiting = await waitForAttempts(() => deliveries(first.t, account.key, endpoint.id), 2);
      expect(waiting.map((a) => [a.attempt, a.status_code, a.outcome, a.delivery_status])).toEqual([
        [2, 500, 'retrying', 'pending'],
        [1, 500, 'retrying', 'pending'],
      ]);
      const dueAt = Date.parse(waiting[0].next_attempt_at);
      expect(dueAt - Date.parse(waiting[0].attempted_at)).toBe(5 * 60_000);

      expect(await first.kill()).toEqual({ code: null, signal: 'SIGKILL' });

      // As if the crash had come before the process manager saved its checkpoint: the new process
      // sees the whole log again, and must queue nothing twice.
      expect((await onPlatform(dir, "DELETE FROM process_checkpoint WHERE name = 'webhook-events'")).changes).toBe(1);

      // Second process: its manual clock starts at the wall clock, before the attempt is due.
      const second = await start();
      const now = await platformNow(second.t);
      expect(now).toBeLessThan(dueAt);
      await receiver.expectNoMoreThan(2, 800);
      const survived = await deliveries(second.t, account.key, endpoint.id);
      expect(survived).toEqual(waiting);

      await advanceClock(second.t, (dueAt - now - 1000) / 1000);
      await receiver.expectNoMoreThan(2, 500);
      await advanceClock(second.t, 1);
      const got = await receiver.waitFor(3);
      for (const delivery of got) expectSigned(delivery, endpoint.signing_secret);
      expect(new Set(got.map((d) => d.rawBody)).size).toBe(1);
      expect(got[2].body).toMatchObject({ type: 'conversation.started', data: { conversation_id: conversationId } });
      expect(Number(got[2].headers['x-webhook-timestamp'])).toBe(Math.floor(dueAt / 1000));

      const done = await waitForAttempts(() => deliveries(second.t, account.key, endpoint.id), 3);
      expect(done.map((a) => [a.attempt, a.status_code, a.outcome, a.delivery_status])).toEqual([
        [3, 200, 'delivered', 'delivered'],
        [2, 500, 'retrying', 'delivered'],
        [1, 500, 'retrying', 'delivered'],
      ]);
      expect(new Set(done.map((a) => a.delivery_id)).size).toBe(1);
      await advanceClock(second.t, 24 * 3600);
      await receiver.expectNoMoreThan(3);

      // Killed again after the 2xx: a third process never sends it again.
      expect(await second.kill()).toEqual({ code: null, signal: 'SIGKILL' });
      const third = await start();
      await advanceClock(third.t, 24 * 3600);
      await advanceClock(third.t, 24 * 3600);
      await receiver.expectNoMoreThan(3, 800);
      expect(await deliveries(third.t, account.key, endpoint.id)).toEqual(done);
    },
    APP_PROCESS_TEST_TIMEOUT_MS,
  );
});
