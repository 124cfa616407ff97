import { DomainError } from '../errors/domain-error';

interface Bucket {
  tokens: number;
  updatedMs: number;
}

/**
 * A token bucket per caller: `ratePerSecond` sustained, bursts up to twice that. Process-local
 * and on the wall clock (a rate is about real load, not about the test clock).
 */
export class RateLimiter {
  private readonly buckets = new Map<string, Bucket>();

  constructor(
    private readonly ratePerSecond: number,
    private readonly burst = ratePerSecond * 2,
    private readonly code = 'RATE_LIMITED',
  ) {}

  /** Takes one token for `id`, or throws 429 with Retry-After. */
  take(id: string, nowMs = Date.now()): void {
    if (this.ratePerSecond <= 0) return;
    let bucket = this.buckets.get(id);
    if (!bucket) {
      if (this.buckets.size > 100_000) this.buckets.clear();
      bucket = { tokens: this.burst, updatedMs: nowMs };
      this.buckets.set(id, bucket);
    }
    bucket.tokens = Math.min(this.burst, bucket.tokens + ((nowMs - bucket.updatedMs) / 1000) * this.ratePerSecond);
    bucket.updatedMs = nowMs;
    if (bucket.tokens < 1) {
      const retryAfter = Math.max(1, Math.ceil((1 - bucket.tokens) / this.ratePerSecond));
      throw new DomainError(this.code, 'rate limit exceeded; retry later', 429, null, [], {
        'retry-after': String(retryAfter),
      });
    }
    bucket.tokens -= 1;
  }
}
