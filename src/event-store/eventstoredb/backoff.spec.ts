import { backoffDelay, DEFAULT_BACKOFF } from './backoff';

const policy = { initialMs: 100, maxMs: 5_000, factor: 2 };

describe('backoffDelay', () => {
  it('doubles from the initial delay (upper end of the jitter)', () => {
    expect([1, 2, 3, 4, 5].map((attempt) => backoffDelay(attempt, policy, () => 1))).toEqual([
      100, 200, 400, 800, 1600,
    ]);
  });

  it('never waits longer than maxMs, however many attempts failed', () => {
    for (const attempt of [7, 10, 50, 1_000, 1e9]) expect(backoffDelay(attempt, policy, () => 1)).toBe(5_000);
    expect(backoffDelay(Number.MAX_SAFE_INTEGER, DEFAULT_BACKOFF, () => 1)).toBe(DEFAULT_BACKOFF.maxMs);
  });

  it('jitters within the upper half of the delay', () => {
    expect(backoffDelay(3, policy, () => 0)).toBe(200);
    expect(backoffDelay(3, policy, () => 0.5)).toBe(300);
    for (let i = 0; i < 200; i++) {
      const delay = backoffDelay(1 + (i % 12), policy);
      expect(delay).toBeGreaterThanOrEqual(50);
      expect(delay).toBeLessThanOrEqual(5_000);
    }
  });
});
