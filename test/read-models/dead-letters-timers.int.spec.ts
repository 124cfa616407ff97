import type { DataSource } from 'typeorm';
import { ManualClock } from '../../src/platform/clock/clock';
import { DomainError } from '../../src/platform/errors/domain-error';
import { DeadLetterStore } from '../../src/subscriptions/dead-letters';
import { rearmDeadTimers } from '../../src/process-managers/rearm-dead-timers';
import { Timers, type DueTimer } from '../../src/process-managers/timers';
import { sleep, waitUntil } from '../fixtures/counter-projection';
import { silentLogger } from '../fixtures/read-side-harness';
import { describeEachPlatformDatabase, type PlatformDatabase } from '../support/platform-databases';

const T0 = Date.parse('2030-01-01T00:00:00.000Z');
/** short backoff so the test sees the whole schedule: 3 failures in a row dead-letter a timer */
const POLICY = { baseMs: 20, attempts: 3, transientMs: 20 };

/** Dead timers live in the platform database beside the timers: the SQLite file, and PostgreSQL. */
describeEachPlatformDatabase('timers set a poisoned timer aside (issue 30)', (databases) => {
  let database: PlatformDatabase;
  let platform: DataSource;
  let timers: Timers | null = null;

  beforeEach(async () => {
    database = await databases.fresh();
    platform = await database.open();
  });
  afterEach(async () => {
    await timers?.stop();
    timers = null;
  });

  it('a timer whose handler keeps throwing is dead-lettered after N attempts while other tenants fire; a re-arm fires it after the fix', async () => {
    const clock = new ManualClock(T0);
    const deadLetters = new DeadLetterStore(platform);
    const recorded: string[] = [];
    deadLetters.onRecorded(({ kind, name }) => recorded.push(`${kind}:${name}`));
    const fired: string[] = [];
    const tries: Record<string, number> = {};
    const cure = { healed: false };
    let lagging = POLICY.attempts + 2;
    const handler = async (timer: DueTimer<{ tenant: string; secret?: string }>) => {
      tries[timer.id] = (tries[timer.id] ?? 0) + 1;
      // more transient failures than the attempts allowed: never dead-lettered, it fires in the end
      if (timer.payload.tenant === 'c' && lagging-- > 0) throw new DomainError('READ_MODEL_LAGGING', 'not yet', 503);
      if (timer.payload.tenant === 'b' && !cure.healed)
        throw new TypeError("Cannot read properties of undefined (reading 'to')");
      fired.push(timer.id);
    };
    timers = new Timers(platform, clock, silentLogger, deadLetters, POLICY);
    timers.handle('sms-send', handler);
    timers.handle('alerts', handler);
    timers.start();

    await timers.schedule({ id: 'send-a', owner: 'sms-send', dueAt: new Date(T0 + 1000), payload: { tenant: 'a' } });
    await timers.schedule({
      id: 'send-b',
      owner: 'sms-send',
      dueAt: new Date(T0 + 1000),
      payload: { tenant: 'b', secret: 'sk-never-stored' },
    });
    await timers.schedule({ id: 'send-c', owner: 'sms-send', dueAt: new Date(T0 + 1000), payload: { tenant: 'c' } });
    await timers.schedule({ id: 'alert-d', owner: 'alerts', dueAt: new Date(T0 + 2000), payload: { tenant: 'd' } });
    clock.advance(5);

    await waitUntil(
      async () => (await timers!.get('send-b'))?.status === 'dead',
      'the poisoned timer is dead-lettered',
      10_000,
      10,
    );
    await waitUntil(
      async () => (await timers!.get('send-c'))?.status === 'fired',
      'the lagging timer fires once the wait ends',
      10_000,
      10,
    );
    expect([...fired].sort()).toEqual(['alert-d', 'send-a', 'send-c']);
    expect(tries['send-b']).toBe(POLICY.attempts);
    expect(tries['send-c']).toBe(POLICY.attempts + 3);
    expect(await timers.get('send-b')).toMatchObject({ status: 'dead', attempts: POLICY.attempts, leaseUntil: null });
    expect(recorded).toEqual(['timer:sms-send']);
    expect(await deadLetters.list()).toEqual([
      expect.objectContaining({
        kind: 'timer',
        name: 'sms-send',
        position: 'send-b',
        eventId: 'send-b',
        eventType: 'timer',
        streamId: '',
        version: null,
        generation: null,
        status: 'open',
        attempts: POLICY.attempts,
        error: "TypeError: Cannot read properties of undefined (reading 'to')",
      }),
    ]);
    // the payload (it may hold secrets) is never kept with the dead letter
    expect(JSON.stringify(await platform.query('SELECT * FROM dead_letter'))).not.toContain('sk-never-stored');
    expect(await timers.report()).toEqual([
      { owner: 'alerts', deadLetters: 0 },
      { owner: 'sms-send', deadLetters: 1 },
    ]);
    // set aside: it no longer runs, however long the service goes on
    await sleep(POLICY.baseMs * 10);
    clock.advance(60);
    await timers.runDue();
    expect(tries['send-b']).toBe(POLICY.attempts);

    // the fix is deployed; an operator re-arms it (the CLI's `retry sms-send send-b`), from another connection
    cure.healed = true;
    const operator = await database.open();
    expect(await rearmDeadTimers(operator, 'sms-send', 'send-b')).toBe(1);
    expect((await deadLetters.list({ status: 'all' }))[0]).toMatchObject({ status: 'retry' });
    expect(await rearmDeadTimers(operator, 'sms-send', 'send-b')).toBe(0);
    // nobody pokes: the running service looks for re-armed timers while some of its timers are dead
    await waitUntil(
      async () => (await timers!.get('send-b'))?.status === 'fired',
      'the running service fires the re-armed timer',
      10_000,
      20,
    );
    expect(fired).toContain('send-b');
    await waitUntil(
      async () => (await deadLetters.list({ status: 'resolved' })).length === 1,
      'its dead letter is resolved',
      5000,
      10,
    );
    expect(await deadLetters.list()).toEqual([]);
    expect(await timers.report()).toEqual([
      { owner: 'alerts', deadLetters: 0 },
      { owner: 'sms-send', deadLetters: 0 },
    ]);
  });

  it('a re-armed timer that still fails is dead-lettered again, with its attempts added; --all re-arms every dead timer of the owner', async () => {
    const clock = new ManualClock(T0);
    const deadLetters = new DeadLetterStore(platform);
    const fired: string[] = [];
    const cure = { healed: false };
    timers = new Timers(platform, clock, silentLogger, deadLetters, POLICY);
    timers.handle('watchdog', async (timer) => {
      if (!cure.healed) throw new Error(`no call for ${timer.id}`);
      fired.push(timer.id);
    });
    timers.start();
    for (const id of ['w-1', 'w-2']) await timers.schedule({ id, owner: 'watchdog', dueAt: new Date(T0) });
    await timers.runDue();
    const bothDead = async () =>
      (await deadLetters.list({ name: 'watchdog' })).filter((l) => l.status === 'open').length === 2;
    await waitUntil(bothDead, 'both timers are dead-lettered', 10_000, 10);

    expect(await rearmDeadTimers(platform, 'watchdog', 'w-1')).toBe(1);
    await waitUntil(
      async () =>
        (await deadLetters.list({ name: 'watchdog', position: 'w-1' as never }))[0]?.attempts === POLICY.attempts * 2,
      'w-1 fails again',
      10_000,
      20,
    );
    expect(await timers.get('w-1')).toMatchObject({ status: 'dead', attempts: POLICY.attempts * 2 });
    expect(await bothDead()).toBe(true);

    cure.healed = true;
    expect(await rearmDeadTimers(platform, 'watchdog')).toBe(2);
    await waitUntil(() => fired.length === 2, 'both fire after the fix', 10_000, 20);
    await waitUntil(
      async () => (await deadLetters.list({ name: 'watchdog' })).length === 0,
      'both dead letters resolve',
      5000,
      10,
    );
    expect(fired.sort()).toEqual(['w-1', 'w-2']);
  });
});
