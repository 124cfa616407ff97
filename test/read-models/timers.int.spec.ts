import pino from 'pino';
import type { DataSource } from 'typeorm';
import { ManualClock } from '../../src/platform/clock/clock';
import { TimerRecord } from '../../src/platform/database/platform.entities';
import { readModelLagging } from '../../src/read-models/failures/read-model-lagging';
import { Timers, type DueTimer } from '../../src/process-managers/timers';
import { sleep, waitUntil } from '../fixtures/counter-projection';
import { silentLogger } from '../fixtures/read-side-harness';
import { describeEachPlatformDatabase, type PlatformDatabase } from '../support/platform-databases';

const T0 = Date.parse('2030-01-01T00:00:00.000Z');

describeEachPlatformDatabase('Timers (ManualClock, platform DB)', (databases) => {
  let database: PlatformDatabase;
  let platform: DataSource;
  const running: Timers[] = [];

  beforeEach(async () => {
    database = await databases.fresh();
    platform = await database.open();
  });

  afterEach(async () => {
    for (const timers of running.splice(0)) await timers.stop();
  });

  function startTimers(
    clock: ManualClock,
    handler: (timer: DueTimer) => Promise<void>,
    db: DataSource = platform,
  ): Timers {
    const timers = new Timers(db, clock, silentLogger);
    timers.handle('test', handler);
    timers.start();
    running.push(timers);
    return timers;
  }

  const at = (seconds: number) => new Date(T0 + seconds * 1000);

  it('fires once after its due time when the clock passes it, and not before', async () => {
    const clock = new ManualClock(T0);
    const fired: Array<DueTimer & { at: string }> = [];
    const timers = startTimers(clock, async (t) => {
      fired.push({ ...t, at: clock.nowIso() });
    });
    await timers.schedule({ id: 't-1', owner: 'test', dueAt: at(60), payload: { call: 'abc' } });
    await timers.runDue();
    expect(fired).toEqual([]);

    clock.advance(59.999);
    await timers.runDue();
    expect(fired).toEqual([]);
    expect(await timers.get('t-1')).toMatchObject({ status: 'pending', attempts: 0 });

    clock.advance(0.001); // exactly due
    await timers.runDue();
    expect(fired).toEqual([
      { id: 't-1', dueAt: at(60).toISOString(), payload: { call: 'abc' }, at: at(60).toISOString() },
    ]);
    // a fired timer keeps no payload (it may have held personal text)
    expect(await timers.get('t-1')).toMatchObject({
      status: 'fired',
      attempts: 1,
      firedAt: at(60).toISOString(),
      leaseUntil: null,
      payload: 'null',
    });

    clock.advance(3600);
    await timers.runDue();
    await sleep(20);
    expect(fired).toHaveLength(1);
  });

  it('erasure: forgetPayloads drops the payloads that hold a text, of one owner, and cancels those not yet run', async () => {
    const clock = new ManualClock(T0);
    const fired: unknown[] = [];
    const timers = startTimers(clock, async (t) => {
      fired.push(t.payload);
    });
    const batch = (conversationId: string) => ({
      conversationId,
      messages: [{ text: `hello from ${conversationId}` }],
    });
    await timers.schedule({ id: 'a-1', owner: 'test', dueAt: at(60), payload: batch('SMS_1') });
    await timers.schedule({ id: 'a-2', owner: 'test', dueAt: at(60), payload: batch('SMS_1') });
    await timers.schedule({ id: 'b-1', owner: 'test', dueAt: at(60), payload: batch('SMSx1') });
    await timers.schedule({ id: 'c-1', owner: 'other', dueAt: at(60), payload: batch('SMS_1') });
    // `_` is not a wildcard here: SMSx1 is another conversation
    expect(await timers.forgetPayloads('test', JSON.stringify('SMS_1'))).toBe(2);
    expect(await timers.get('a-1')).toMatchObject({ status: 'cancelled', payload: 'null' });
    expect(await timers.get('b-1')).toMatchObject({ status: 'pending', payload: JSON.stringify(batch('SMSx1')) });
    expect(await timers.get('c-1')).toMatchObject({ status: 'pending', payload: JSON.stringify(batch('SMS_1')) });
    clock.advance(60);
    await timers.runDue();
    expect(fired).toEqual([batch('SMSx1')]);
    // nothing holds it any more: forgetting again finds nothing
    expect(await timers.forgetPayloads('test', JSON.stringify('SMS_1'))).toBe(0);
  });

  it('fires on clock advance without anyone calling runDue', async () => {
    const clock = new ManualClock(T0);
    let fired = 0;
    const timers = startTimers(clock, async () => {
      fired++;
    });
    await timers.schedule({ id: 'auto', owner: 'test', dueAt: at(10) });
    await sleep(20);
    expect(fired).toBe(0);
    clock.advance(11);
    await waitUntil(() => fired === 1, 'the timer fires after advance', 2000);
    await sleep(30);
    expect(fired).toBe(1);
  });

  it('scheduling the same id twice is a no-op; cancel stops a pending timer', async () => {
    const clock = new ManualClock(T0);
    const fired: string[] = [];
    const timers = startTimers(clock, async (t) => {
      fired.push(`${t.id}:${JSON.stringify(t.payload)}`);
    });
    await timers.schedule({ id: 'dup', owner: 'test', dueAt: at(5), payload: 1 });
    await timers.schedule({ id: 'dup', owner: 'test', dueAt: at(500), payload: 2 });
    expect(await timers.get('dup')).toMatchObject({ dueAt: at(5).toISOString(), payload: '1' });
    await timers.schedule({ id: 'gone', owner: 'test', dueAt: at(5) });
    expect(await timers.cancel('gone')).toBe(true);
    expect(await timers.cancel('gone')).toBe(false);
    expect(await timers.cancel('never-scheduled')).toBe(false);
    expect(await timers.get('gone')).toMatchObject({ status: 'cancelled' });

    clock.advance(10);
    await timers.runDue();
    expect(fired).toEqual(['dup:1']);
    // Scheduling a fired id again does not re-arm it; cancelling a fired one does nothing.
    await timers.schedule({ id: 'dup', owner: 'test', dueAt: at(11), payload: 3 });
    expect(await timers.cancel('dup')).toBe(false);
    clock.advance(10);
    await timers.runDue();
    expect(fired).toEqual(['dup:1']);
  });

  it('a timer whose handler throws is retried later and fires once it succeeds', async () => {
    const clock = new ManualClock(T0);
    let attempts = 0;
    let effects = 0;
    const timers = startTimers(clock, async () => {
      attempts++;
      if (attempts < 3) throw new Error(`transient failure ${attempts}`);
      effects++;
    });
    await timers.schedule({ id: 'flaky', owner: 'test', dueAt: at(1) });
    clock.advance(2);
    await timers.runDue();
    expect(attempts).toBe(1);
    expect(effects).toBe(0);
    expect(await timers.get('flaky')).toMatchObject({ status: 'pending', attempts: 1 });

    // Nobody pokes: the timer service retries on its own (a second later, then two), without the clock moving.
    await waitUntil(() => effects === 1, 'the failed timer is retried until it succeeds', 8000, 10);
    expect(attempts).toBe(3);
    // the service records the firing after the handler returns (on PostgreSQL, a round trip later)
    await waitUntil(
      async () => (await timers.get('flaky'))?.status === 'fired',
      'the timer is recorded as fired',
      2000,
      10,
    );
    expect(await timers.get('flaky')).toMatchObject({ status: 'fired', attempts: 3 });
    await timers.runDue();
    expect(effects).toBe(1);
  });

  it('a handler waiting on a lagging read model is logged as a wait, other failures as errors; both run again', async () => {
    const clock = new ManualClock(T0);
    const lines: Array<{ level: number; msg: string; timer: string }> = [];
    const logger = pino({ level: 'info' }, { write: (line: string) => void lines.push(JSON.parse(line)) });
    const timers = new Timers(platform, clock, logger);
    const failures: Record<string, number> = { lagging: 0, broken: 0 };
    timers.handle('test', async (t) => {
      if (failures[t.id]++ === 0) throw t.id === 'lagging' ? readModelLagging() : new Error('the carrier said no');
    });
    timers.start();
    running.push(timers);
    await timers.schedule({ id: 'lagging', owner: 'test', dueAt: at(1) });
    await timers.schedule({ id: 'broken', owner: 'test', dueAt: at(1) });
    clock.advance(2);
    await timers.runDue();
    const of = (id: string) => lines.filter((l) => l.timer === id).map((l) => ({ level: l.level, msg: l.msg }));
    expect(of('lagging')).toEqual([{ level: 30, msg: 'timer waits for a read model to catch up; it will run again' }]);
    expect(of('broken')).toEqual([{ level: 50, msg: 'timer handler failed; it will run again' }]);
    expect(await timers.get('lagging')).toMatchObject({ status: 'pending', attempts: 1 });
    await waitUntil(
      async () => (await timers.get('lagging'))?.status === 'fired' && (await timers.get('broken'))?.status === 'fired',
      'both run again and fire',
      4000,
      10,
    );
  });

  it('across a restart (a new Timers on the same DB) a due timer fires exactly once', async () => {
    let effects = 0;
    const effect = async () => {
      effects++;
    };
    // Process 1 schedules and stops before the timers are due.
    const clock1 = new ManualClock(T0);
    const first = startTimers(clock1, effect);
    await first.schedule({ id: 'r-1', owner: 'test', dueAt: at(30) });
    await first.schedule({ id: 'r-2', owner: 'test', dueAt: at(90) });
    await first.stop();
    running.splice(running.indexOf(first), 1);

    // Process 2, on its own connection, starts after r-1 is due.
    const platform2 = await database.open();
    const second = startTimers(new ManualClock(T0 + 45_000), effect, platform2);
    await second.runDue();
    expect(effects).toBe(1);
    expect(await second.get('r-1')).toMatchObject({ status: 'fired' });
    expect(await second.get('r-2')).toMatchObject({ status: 'pending' });
    await second.stop();
    running.splice(running.indexOf(second), 1);

    // Process 3, later still: only r-2 is left to fire.
    const platform3 = await database.open();
    const third = startTimers(new ManualClock(T0 + 100_000), effect, platform3);
    await third.runDue();
    await sleep(20);
    expect(effects).toBe(2);
    expect(await third.get('r-2')).toMatchObject({ status: 'fired', attempts: 1 });
  });

  it('two processes on one database claiming at the same time fire each timer exactly once', async () => {
    const fired = new Map<string, string[]>();
    const handlerOf = (process: string) => async (t: DueTimer) => {
      fired.set(t.id, [...(fired.get(t.id) ?? []), process]);
      await sleep(0); // let the other process claim meanwhile
    };
    const clock = new ManualClock(T0);
    const a = startTimers(clock, handlerOf('a'));
    const b = startTimers(clock, handlerOf('b'), await database.open());
    const ids = Array.from({ length: 250 }, (_, i) => `race-${i}`);
    for (const id of ids) await a.schedule({ id, owner: 'test', dueAt: at(1) });
    clock.advance(2);
    await Promise.all([a.runDue(), b.runDue()]);
    expect([...fired.keys()].sort()).toEqual([...ids].sort());
    expect([...fired.values()].filter((by) => by.length > 1)).toEqual([]);
    // both took part: claims skip what the other holds instead of waiting for it
    const by = [...fired.values()].map(([p]) => p);
    expect(by).toContain('a');
    expect(by).toContain('b');
  });

  it('a claim of a live process is renewed while its handler runs, and taken over once held past 60 s', async () => {
    // a clock each, as two machines have, moved together: the second's never pokes the first
    const clock = new ManualClock(T0);
    const otherClock = new ManualClock(T0);
    const advance = (seconds: number) => [clock, otherClock].forEach((c) => c.advance(seconds));
    let release = () => {};
    const hung = new Promise<void>((resolve) => (release = resolve));
    let hungClaims = 0;
    const first = startTimers(clock, async () => {
      hungClaims++;
      await hung;
    });
    await first.schedule({ id: 'stuck', owner: 'test', dueAt: at(1) });
    clock.advance(2);
    otherClock.advance(2);
    await waitUntil(() => hungClaims === 1, 'the first process claims the timer', 2000);
    const taken: string[] = [];
    const second = startTimers(
      otherClock,
      async (t) => {
        taken.push(t.id);
      },
      await database.open(),
    );
    await second.runDue();
    expect(taken).toEqual([]);
    // past the first lease (4 s): the first process renews it, so it stays its own
    clock.advance(30);
    const leaseUntil = async () => Date.parse((await second.get('stuck'))!.leaseUntil!);
    const renewed = Date.now() + 10_000;
    while ((await leaseUntil()) <= clock.now().getTime()) {
      if (Date.now() > renewed) throw new Error('the lease was not renewed');
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    otherClock.advance(30);
    await second.runDue();
    expect(taken).toEqual([]);
    // held 65 s: taken to hang, no longer renewed, and its last renewal has run out
    advance(35);
    await second.runDue();
    expect(taken).toEqual(['stuck']);
    expect(await second.get('stuck')).toMatchObject({ status: 'fired', attempts: 1 });
    release();
  });

  it('a timer claimed by a process that died fires again once its lease runs out (and only then)', async () => {
    let effects = 0;
    const clock = new ManualClock(T0 + 20_000);
    const timers = new Timers(platform, clock, silentLogger);
    await timers.schedule({ id: 'orphan', owner: 'test', dueAt: at(10) });
    // What a crash between claim and "fired" leaves behind: firing, leased for 60 s of clock time.
    await platform
      .getRepository(TimerRecord)
      .update({ id: 'orphan' }, { status: 'firing', leaseUntil: new Date(T0 + 80_000).toISOString() });

    timers.handle('test', async () => {
      effects++;
    });
    timers.start();
    running.push(timers);
    await timers.runDue();
    expect(effects).toBe(0);
    clock.advance(59);
    await timers.runDue();
    expect(effects).toBe(0);
    clock.advance(2);
    await timers.runDue();
    expect(effects).toBe(1);
    expect(await timers.get('orphan')).toMatchObject({ status: 'fired', attempts: 1 });
  });
});
