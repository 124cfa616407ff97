import { DomainError } from '../errors/domain-error';
import { AuthFailureThrottle, notAGuess } from './auth-failure-throttle';

const refused = () => new DomainError('API_KEY_INVALID', 'invalid API key', 401);

describe('AuthFailureThrottle', () => {
  it('lets an address fail `burst` times, then refuses it with 429 and Retry-After until a failure refills', () => {
    const throttle = new AuthFailureThrottle(0.5, 2);
    throttle.failed('a', refused(), 0);
    throttle.admit('a', 0);
    throttle.failed('a', refused(), 0);
    expect(() => throttle.admit('a', 0)).toThrow(
      expect.objectContaining({ status: 429, code: 'AUTH_FAILURES_THROTTLED', headers: { 'retry-after': '2' } }),
    );
    expect(() => throttle.admit('b', 0)).not.toThrow();
    // 0.5 a second: one failure back after 2 s
    expect(() => throttle.admit('a', 1999)).toThrow(DomainError);
    expect(() => throttle.admit('a', 2000)).not.toThrow();
  });

  it('counts only refused credentials: not a missing one, not an expired real key, not a 403, not another error', () => {
    const throttle = new AuthFailureThrottle(1, 1);
    throttle.failed('a', new DomainError('API_KEY_MISSING', 'missing', 401), 0);
    throttle.failed('a', new DomainError('MISSING_AUTH_HEADERS', 'missing', 401), 0);
    throttle.failed('a', new DomainError('API_KEY_EXPIRED', 'API key has expired', 401), 0);
    throttle.failed('a', new DomainError('ACCOUNT_FORBIDDEN', 'no', 403), 0);
    throttle.failed('a', new Error('boom'), 0);
    expect(() => throttle.admit('a', 0)).not.toThrow();
    expect(throttle.failed('a', refused(), 0)).toBeInstanceOf(DomainError);
    expect(() => throttle.admit('a', 0)).toThrow(DomainError);
  });

  it('a rate of 0 turns it off', () => {
    const throttle = new AuthFailureThrottle(0, 1);
    for (let i = 0; i < 100; i++) throttle.failed('a', refused(), 0);
    expect(() => throttle.admit('a', 0)).not.toThrow();
  });
});

describe('AuthFailureThrottle.attempt', () => {
  it('admits, runs the check, and counts a refusal it throws now or later', async () => {
    const throttle = new AuthFailureThrottle(0.001, 2);
    expect(() =>
      throttle.attempt('a', () => {
        throw refused();
      }),
    ).toThrow(DomainError);
    await expect(throttle.attempt('a', () => Promise.reject(refused()))).rejects.toBeInstanceOf(DomainError);
    expect(() => throttle.attempt('a', () => 'never runs')).toThrow(
      expect.objectContaining({ code: 'AUTH_FAILURES_THROTTLED' }),
    );
    expect(throttle.attempt('b', () => 'ok')).toBe('ok');
  });

  it('a refusal marked notAGuess spends nothing', () => {
    const throttle = new AuthFailureThrottle(0.001, 1);
    for (let i = 0; i < 3; i++)
      expect(() =>
        throttle.attempt('a', () => {
          throw notAGuess(refused());
        }),
      ).toThrow(DomainError);
    expect(throttle.attempt('a', () => 'ok')).toBe('ok');
  });
});
