import type { Awaitable } from '../awaitable';
import { DomainError } from '../errors/domain-error';
import { TokenBuckets } from '../limits/token-buckets';
import { clientAddress } from '../net/client-address';
import { rateLimited } from './rate-limiter';

/**
 * Refusals that are not a guess: no credential at all, the right connector token on an
 * unregistered host, or a real key past its expiry (a forgotten client retrying it must not lock
 * out everyone behind the same address).
 */
const NOT_A_GUESS = new Set([
  'API_KEY_MISSING',
  'MISSING_AUTH_HEADERS',
  'CONNECTOR_VALIDATION_FAILED',
  'CONNECTOR_MISSING_HOST_DOMAIN',
  'API_KEY_EXPIRED',
]);
const unguessed = new WeakSet<object>();

/** Marks a refusal as not a guess (a credential header that was not sent at all), so it spends nothing. */
export function notAGuess<E extends object>(error: E): E {
  unguessed.add(error);
  return error;
}

/**
 * Slows credential guessing per client address (AUTH_FAILURE_RATE, AUTH_FAILURE_BURST): each
 * refused credential spends a token of the address's bucket, which refills at the rate up to the
 * burst. An address with no token left is answered 429 with Retry-After *before* its credential
 * is looked at, whatever it presents (answering a right guess would let guessing go on at full
 * speed); successes spend nothing, and other addresses have buckets of their own. The address is
 * the client's (`request.ip`, which believes X-Forwarded-For only from TRUSTED_PROXIES).
 */
export class AuthFailureThrottle {
  private readonly buckets: TokenBuckets;

  constructor(ratePerSecond: number, burst: number) {
    this.buckets = new TokenBuckets(ratePerSecond, burst);
  }

  /**
   * The one way a credential is checked: refused at once while `peer` has spent its failures,
   * otherwise `authenticate` runs and a refusal it throws (now or later) counts against `peer`.
   */
  attempt<T>(peer: string | undefined, authenticate: () => Awaitable<T>): Awaitable<T> {
    this.admit(peer);
    let result: Awaitable<T>;
    try {
      result = authenticate();
    } catch (error) {
      throw this.failed(peer, error);
    }
    if (!(result instanceof Promise)) return result;
    return result.catch((error: unknown) => {
      throw this.failed(peer, error);
    });
  }

  /** Throws 429 when the client at `peer` has spent its failures. Costs one size check while no address is failing. */
  admit(peer: string | undefined, nowMs = Date.now()): void {
    if (this.buckets.empty) return;
    const retryAfter = this.buckets.wait(clientAddress(peer), 1, nowMs);
    if (retryAfter > 0)
      throw rateLimited(
        'AUTH_FAILURES_THROTTLED',
        'too many failed authentication attempts from this address; retry later',
        retryAfter,
      );
  }

  /** Counts `error` against the client at `peer` when it refused a presented credential; returns it for the caller to throw. */
  failed(peer: string | undefined, error: unknown, nowMs = Date.now()): unknown {
    if (error instanceof DomainError && error.status === 401 && !NOT_A_GUESS.has(error.code) && !unguessed.has(error))
      this.buckets.spend(clientAddress(peer), 1, nowMs);
    return error;
  }
}
