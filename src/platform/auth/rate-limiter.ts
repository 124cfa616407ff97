import { DomainError } from '../errors/domain-error';
import { TokenBuckets } from '../limits/token-buckets';

/** Requests per caller: `ratePerSecond` sustained, bursts up to twice that; past it 429 with Retry-After. */
export class RateLimiter {
  private readonly buckets: TokenBuckets;

  constructor(
    ratePerSecond: number,
    burst = ratePerSecond * 2,
    private readonly code = 'RATE_LIMITED',
  ) {
    this.buckets = new TokenBuckets(ratePerSecond, burst);
  }

  /** Takes one token for `id`, or throws 429 with Retry-After. */
  take(id: string, nowMs = Date.now()): void {
    const retryAfter = this.buckets.take(id, 1, nowMs);
    if (retryAfter > 0) throw rateLimited(this.code, 'rate limit exceeded; retry later', retryAfter);
  }
}

/** The 429 every per-caller limit answers: the code, why, and when to come back. */
export function rateLimited(code: string, message: string, retryAfterS: number): DomainError {
  return new DomainError(code, message, 429, null, [], { 'retry-after': String(retryAfterS) });
}
