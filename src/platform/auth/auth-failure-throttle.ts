import { isIPv6 } from 'node:net';
import { DomainError } from '../errors/domain-error';

interface Bucket {
  tokens: number;
  updatedMs: number;
}

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
const MAX_ADDRESSES = 100_000;

/**
 * Slows credential guessing per client address (AUTH_FAILURE_RATE, AUTH_FAILURE_BURST): each
 * refused credential spends a token of the address's bucket, which refills at the rate up to the
 * burst. An address with no token left is answered 429 with Retry-After *before* its credential
 * is looked at, whatever it presents (answering a right guess would let guessing go on at full
 * speed); successes spend nothing, and other addresses have buckets of their own. Process-local,
 * on the wall clock, like the per-key rate limit.
 */
export class AuthFailureThrottle {
  private readonly buckets = new Map<string, Bucket>();

  constructor(
    private readonly ratePerSecond: number,
    private readonly burst: number,
  ) {}

  /**
   * Throws 429 when the client at `peer` (a socket's remote address) has spent its failures;
   * otherwise lets authentication go on. Costs one size check while no address is failing.
   */
  admit(peer: string | undefined, nowMs = Date.now()): void {
    if (this.ratePerSecond <= 0 || this.buckets.size === 0) return;
    const bucket = this.refilled(clientAddress(peer), nowMs);
    if (!bucket || bucket.tokens >= 1) return;
    const retryAfter = Math.max(1, Math.ceil((1 - bucket.tokens) / this.ratePerSecond));
    throw new DomainError(
      'AUTH_FAILURES_THROTTLED',
      'too many failed authentication attempts from this address; retry later',
      429,
      null,
      [],
      { 'retry-after': String(retryAfter) },
    );
  }

  /** Counts `error` against the client at `peer` when it refused a presented credential; returns it for the caller to throw. */
  failed(peer: string | undefined, error: unknown, nowMs = Date.now()): unknown {
    if (
      this.ratePerSecond <= 0 ||
      !(error instanceof DomainError) ||
      error.status !== 401 ||
      NOT_A_GUESS.has(error.code)
    )
      return error;
    const address = clientAddress(peer);
    let bucket = this.refilled(address, nowMs);
    if (!bucket) {
      if (this.buckets.size >= MAX_ADDRESSES) this.buckets.delete(this.buckets.keys().next().value!);
      bucket = { tokens: this.burst, updatedMs: nowMs };
      this.buckets.set(address, bucket);
    }
    bucket.tokens = Math.max(0, bucket.tokens - 1);
    return error;
  }

  private refilled(address: string, nowMs: number): Bucket | undefined {
    const bucket = this.buckets.get(address);
    if (!bucket) return undefined;
    bucket.tokens = Math.min(this.burst, bucket.tokens + ((nowMs - bucket.updatedMs) / 1000) * this.ratePerSecond);
    bucket.updatedMs = nowMs;
    // full again: forget the address, so the map holds only addresses failing now
    if (bucket.tokens < this.burst) return bucket;
    this.buckets.delete(address);
    return undefined;
  }
}

/**
 * The address a client is throttled by: the socket's peer (X-Forwarded-For is not trusted; Parley
 * has no trusted-proxy setting). IPv4-mapped IPv6 as IPv4; other IPv6 by its /64, the block one
 * client is usually given.
 */
export function clientAddress(raw: string | undefined): string {
  if (!raw) return 'unknown';
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(raw);
  if (mapped) return mapped[1];
  if (!isIPv6(raw)) return raw;
  return `${expandIPv6(raw).slice(0, 4).join(':')}::/64`;
}

function expandIPv6(address: string): string[] {
  const [head, tail = ''] = address.split('%')[0].split('::');
  const left = head ? head.split(':') : [];
  const right = address.includes('::') && tail ? tail.split(':') : [];
  const middle = address.includes('::') ? Array(8 - left.length - right.length).fill('0') : [];
  return [...left, ...middle, ...right].map((group) => group.toLowerCase().replace(/^0+(?=.)/, ''));
}
