import { DomainError } from '../errors/domain-error';
import { RateLimiter } from './rate-limiter';

function refusal(limiter: RateLimiter, id: string, nowMs: number): DomainError {
  try {
    limiter.take(id, nowMs);
  } catch (error) {
    expect(error).toBeInstanceOf(DomainError);
    return error as DomainError;
  }
  throw new Error('expected a 429');
}

describe('RateLimiter (token bucket per key)', () => {
  it('allows a burst of twice the rate, then answers 429 RATE_LIMITED with Retry-After', () => {
    const limiter = new RateLimiter(5);
    const t0 = 1_000_000;
    for (let i = 0; i < 10; i++) expect(() => limiter.take('key_a', t0)).not.toThrow();
    const error = refusal(limiter, 'key_a', t0);
    expect(error.status).toBe(429);
    expect(error.code).toBe('RATE_LIMITED');
    expect(Number(error.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(error.headers['retry-after']).toMatch(/^\d+$/);
  });

  it('refills at the sustained rate', () => {
    const limiter = new RateLimiter(5);
    const t0 = 1_000_000;
    for (let i = 0; i < 10; i++) limiter.take('k', t0);
    expect(() => limiter.take('k', t0)).toThrow(DomainError);
    // 200 ms at 5/s = one token
    expect(() => limiter.take('k', t0 + 200)).not.toThrow();
    expect(() => limiter.take('k', t0 + 200)).toThrow(DomainError);
    // a long pause refills only up to the burst
    const later = t0 + 60_000;
    for (let i = 0; i < 10; i++) expect(() => limiter.take('k', later)).not.toThrow();
    expect(() => limiter.take('k', later)).toThrow(DomainError);
  });

  it('keeps one bucket per key: one busy key does not limit another', () => {
    const limiter = new RateLimiter(1);
    limiter.take('a', 0);
    limiter.take('a', 0);
    expect(() => limiter.take('a', 0)).toThrow(DomainError);
    expect(() => limiter.take('b', 0)).not.toThrow();
  });

  it('Retry-After tells how many whole seconds until a token is back', () => {
    const limiter = new RateLimiter(1, 1);
    limiter.take('a', 0);
    expect(refusal(limiter, 'a', 0).headers['retry-after']).toBe('1');
    const slow = new RateLimiter(0.1, 1);
    slow.take('a', 0);
    expect(refusal(slow, 'a', 0).headers['retry-after']).toBe('10');
  });

  it('a rate of 0 turns limiting off', () => {
    const limiter = new RateLimiter(0);
    for (let i = 0; i < 1000; i++) limiter.take('a', 0);
  });
});
