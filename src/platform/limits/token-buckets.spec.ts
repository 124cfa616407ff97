import { TokenBuckets } from './token-buckets';

describe('TokenBuckets', () => {
  it('takes a cost from a full burst, refuses what does not fit (taking nothing), refills at the rate', () => {
    const buckets = new TokenBuckets(100, 1000);
    expect(buckets.take('a', 600, 0)).toBe(0);
    // 400 left: 600 more needs 200 tokens, two seconds at 100/s
    expect(buckets.take('a', 600, 0)).toBe(2);
    expect(buckets.take('a', 400, 0)).toBe(0);
    expect(buckets.take('a', 100, 999)).toBe(1);
    expect(buckets.take('a', 100, 1000)).toBe(0);
    expect(buckets.take('a', 1, 1000)).toBe(1);
  });

  it('spend counts a failure after the fact, down to empty; wait reports without taking', () => {
    const buckets = new TokenBuckets(1, 3);
    expect(buckets.empty).toBe(true);
    buckets.spend('a', 5, 0);
    expect(buckets.empty).toBe(false);
    expect(buckets.wait('a', 1, 0)).toBe(1);
    expect(buckets.wait('a', 1, 1000)).toBe(0);
    expect(buckets.wait('a', 1, 1000)).toBe(0);
    expect(buckets.wait('b', 1, 0)).toBe(0);
  });

  it('forgets a bucket once it has refilled, so the map holds only keys spending now', () => {
    const buckets = new TokenBuckets(10, 10);
    buckets.take('a', 10, 0);
    expect(buckets.empty).toBe(false);
    expect(buckets.wait('a', 1, 5000)).toBe(0);
    expect(buckets.empty).toBe(true);
  });

  it('keeps at most maxKeys buckets, dropping the oldest', () => {
    const buckets = new TokenBuckets(1, 1, 2);
    buckets.take('a', 1, 0);
    buckets.take('b', 1, 0);
    buckets.take('c', 1, 0);
    expect(buckets.take('a', 1, 0)).toBe(0);
    expect(buckets.take('c', 1, 0)).toBe(1);
  });

  it('a rate of 0 turns it off', () => {
    const buckets = new TokenBuckets(0, 1);
    for (let i = 0; i < 10; i++) expect(buckets.take('a', 100, 0)).toBe(0);
    expect(buckets.empty).toBe(true);
  });
});
