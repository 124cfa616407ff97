import { ManualClock, SystemClock } from './clock';
import { atDeadline } from './deadline';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('atDeadline', () => {
  it('fires once when the wall clock reaches the deadline, not before', async () => {
    const clock = new SystemClock();
    const fired: number[] = [];
    const at = clock.nowMs() + 80;
    atDeadline(clock, at, () => fired.push(clock.nowMs()));
    await sleep(20);
    expect(fired).toEqual([]);
    for (let i = 0; i < 100 && fired.length === 0; i++) await sleep(20);
    expect(fired).toHaveLength(1);
    expect(fired[0]).toBeGreaterThanOrEqual(at);
    await sleep(100);
    expect(fired).toHaveLength(1);
  });

  it('fires at once when a manual clock jumps past it, and never again', () => {
    const clock = new ManualClock(Date.parse('2026-01-01T00:00:00.000Z'));
    let fired = 0;
    atDeadline(clock, clock.nowMs() + 3600_000, () => fired++);
    clock.advance(3599);
    expect(fired).toBe(0);
    clock.advance(1);
    expect(fired).toBe(1);
    clock.advance(10);
    expect(fired).toBe(1);
  });

  it('a past deadline fires on the next tick; a cancelled one never', async () => {
    const clock = new ManualClock();
    let past = 0;
    let cancelled = 0;
    atDeadline(clock, clock.nowMs() - 1, () => past++);
    expect(past).toBe(0);
    const cancel = atDeadline(clock, clock.nowMs() + 1000, () => cancelled++);
    cancel();
    clock.advance(5);
    await sleep(10);
    expect({ past, cancelled }).toEqual({ past: 1, cancelled: 0 });
  });
});
