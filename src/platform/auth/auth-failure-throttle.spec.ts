import { DomainError } from '../errors/domain-error';
import { clientAddress } from '../net/client-address';
import { AuthFailureThrottle } from './auth-failure-throttle';

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

describe('clientAddress', () => {
  it('IPv4 as is, IPv4-mapped IPv6 as IPv4, other IPv6 by its /64', () => {
    expect(clientAddress('203.0.113.7')).toBe('203.0.113.7');
    expect(clientAddress('::ffff:203.0.113.7')).toBe('203.0.113.7');
    expect(clientAddress('2001:db8:1:2:aaaa::1')).toBe('2001:db8:1:2::/64');
    expect(clientAddress('2001:0db8:0001:0002:ffff:ffff:ffff:ffff')).toBe('2001:db8:1:2::/64');
    expect(clientAddress('::1')).toBe('0:0:0:0::/64');
    expect(clientAddress(undefined)).toBe('unknown');
  });
});
