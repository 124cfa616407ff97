import type { DataSource } from 'typeorm';
import { Clock } from '../../src/platform/clock/clock';
import { PLATFORM_DB } from '../../src/platform/database/platform-database';
import { DeadLetterStore } from '../../src/subscriptions/dead-letters';
import { Timers } from '../../src/process-managers/timers';
import { op } from '../helpers/keys-fixtures';
import { projectionsCli as cli } from '../helpers/projections-cli';
import { request, startTestApp, type TestApp } from '../helpers/test-app';
import { waitUntil } from '../fixtures/counter-projection';
import { silentLogger } from '../fixtures/read-side-harness';

/** Issue 30, timers: a dead timer shows in /readyz, /metrics and the CLI, and the CLI re-arms it for the running app. */
describe('a dead-lettered timer through the app', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => t?.close());

  it('makes readyz degraded, counts in metrics, is listed by the CLI, and fires in the app after `retry <owner> <id>`', async () => {
    const platform = t.app.get<symbol, DataSource>(PLATFORM_DB);
    const clock = t.app.get(Clock);
    const deadLetters = t.app.get(DeadLetterStore);
    // another process with the same owner dead-letters it (with a short backoff, so the test is quick)
    const other = new Timers(platform, clock, silentLogger, deadLetters, { baseMs: 10, attempts: 3, transientMs: 10 });
    other.handle('test-poison', async () => {
      throw new Error('the template has no body');
    });
    other.start();
    await other.schedule({ id: 'poison-1', owner: 'test-poison', dueAt: clock.now(), payload: { token: 'sk-secret' } });
    await waitUntil(
      async () => (await other.get('poison-1'))?.status === 'dead',
      'the timer is dead-lettered',
      10_000,
      10,
    );
    await other.stop();

    const fired: string[] = [];
    t.app.get(Timers).handle('test-poison', async (timer) => void fired.push(timer.id));

    const ready = await request(`${t.url}/readyz`);
    expect(ready.status).toBe(200);
    expect(ready.body).toMatchObject({ status: 'ready', health: 'degraded' });
    expect(ready.body.timers).toContainEqual({ owner: 'test-poison', health: 'degraded', deadLetters: 1 });

    const metrics = await request(`${t.url}/metrics`, { headers: op(t) });
    expect(metrics.body).toContain('parley_dead_letters_total{kind="timer",name="test-poison"} 1');
    expect(metrics.body).toContain('parley_dead_letters_open{kind="timer",name="test-poison"} 1');

    const listed = await cli(t, ['dead-letters', 'test-poison']);
    expect(listed.code).toBe(0);
    expect(listed.text).toContain('timer:test-poison');
    expect(listed.text).toContain('poison-1');
    expect(listed.text).toContain('the template has no body');
    expect(listed.text).toContain('1 open');
    expect(listed.text).not.toContain('sk-secret');

    const retried = await cli(t, ['retry', 'test-poison', 'poison-1']);
    expect(retried).toEqual({ code: 0, text: expect.stringContaining('re-armed 1 dead timer(s) of test-poison') });
    await waitUntil(() => fired.length === 1, 'the running app fires the re-armed timer', 10_000, 20);
    await waitUntil(
      async () => (await request(`${t.url}/readyz`)).body.health === 'ok',
      'readyz is ok again',
      5000,
      20,
    );
    expect((await request(`${t.url}/readyz`)).body.timers).toContainEqual({
      owner: 'test-poison',
      health: 'ok',
      deadLetters: 0,
    });
    expect((await cli(t, ['retry', 'test-poison', '--all'])).code).toBe(1);
  });
});
