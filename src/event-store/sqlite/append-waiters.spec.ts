import { AppendWaiters, lazyWakeEventsWithin } from './append-waiters';

const wantsOrders = (type: string) => type.startsWith('Order');

/** Whether the promise has settled, after the microtasks already queued have run. */
async function settled(promise: Promise<void>): Promise<boolean> {
  let done = false;
  void promise.then(() => (done = true));
  await Promise.resolve();
  await Promise.resolve();
  return done;
}

describe('AppendWaiters', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('a commit wakes a waiter without a type hint, whatever it holds', async () => {
    const waiters = new AppendWaiters(50, 500);
    const { promise } = waiters.wait();
    waiters.committed(['AccountOpened']);
    expect(await settled(promise)).toBe(true);
    expect(waiters.size).toBe(0);
  });

  it('a commit holding a wanted type wakes at once; one of other types only after the lazy delay', async () => {
    const waiters = new AppendWaiters(50, 500);
    const eager = waiters.wait(wantsOrders);
    waiters.committed(['AccountOpened', 'OrderPlaced']);
    expect(await settled(eager.promise)).toBe(true);

    const lazy = waiters.wait(wantsOrders);
    waiters.committed(['AccountOpened']);
    jest.advanceTimersByTime(49);
    expect(await settled(lazy.promise)).toBe(false);
    jest.advanceTimersByTime(1);
    expect(await settled(lazy.promise)).toBe(true);
  });

  it('gathered events past the bound wake at once, counted over several commits', async () => {
    const waiters = new AppendWaiters(50, 5);
    const { promise } = waiters.wait(wantsOrders);
    waiters.committed(['A', 'B']);
    waiters.committed(['C', 'D']);
    expect(await settled(promise)).toBe(false);
    waiters.committed(['E']);
    expect(await settled(promise)).toBe(true);
  });

  it('the lazy timer wakes only those with something gathered: one that fell asleep after the commit sleeps on', async () => {
    const waiters = new AppendWaiters(50, 500);
    const before = waiters.wait(wantsOrders);
    waiters.committed(['AccountOpened']);
    const after = waiters.wait(wantsOrders);
    jest.advanceTimersByTime(50);
    expect(await settled(before.promise)).toBe(true);
    expect(await settled(after.promise)).toBe(false);
    expect(waiters.size).toBe(1);
  });

  it('a commit that stored nothing (retries alone) starts no lazy delivery', async () => {
    const waiters = new AppendWaiters(50, 500);
    const { promise } = waiters.wait(wantsOrders);
    waiters.committed([]);
    jest.advanceTimersByTime(1000);
    expect(await settled(promise)).toBe(false);
    expect(jest.getTimerCount()).toBe(0);
  });

  it('cancel wakes one waiter now; wakeAll (another process appended, or closing) wakes every one and drops the timer', async () => {
    const waiters = new AppendWaiters(50, 500);
    const nudged = waiters.wait(wantsOrders);
    const others = [waiters.wait(wantsOrders), waiters.wait()];
    nudged.cancel();
    expect(await settled(nudged.promise)).toBe(true);
    expect(await settled(others[0].promise)).toBe(false);
    waiters.committed(['AccountOpened']);
    waiters.wakeAll();
    expect(await Promise.all(others.map((o) => settled(o.promise)))).toEqual([true, true]);
    expect(jest.getTimerCount()).toBe(0);
  });

  it('a hint that throws wakes its own waiter and neither stops the others nor the commit', async () => {
    const waiters = new AppendWaiters(50, 500);
    const broken = waiters.wait(() => {
      throw new Error('bad predicate');
    });
    const plain = waiters.wait();
    expect(() => waiters.committed(['AccountOpened'])).not.toThrow();
    expect(await Promise.all([settled(broken.promise), settled(plain.promise)])).toEqual([true, true]);
  });

  it('with a bound of 0 gathered events, every commit wakes everyone (READY_MAX_LAG_EVENTS=0)', async () => {
    const waiters = new AppendWaiters(50, 0);
    const { promise } = waiters.wait(wantsOrders);
    waiters.committed(['AccountOpened']);
    expect(await settled(promise)).toBe(true);
  });

  it('the app bounds the gathered events by half of what /readyz allows a read model to lag, at most 500', () => {
    expect([0, 1, 600, 1000, 10_000, undefined].map(lazyWakeEventsWithin)).toEqual([0, 0, 300, 500, 500, 500]);
  });
});
