import { httpStatusClass, type OutboundErrorClass } from '../platform/outbound/outbound-errors';

/**
 * Contract §13: the first attempt at once, then retries 1 m, 5 m, 15 m, 1 h and 4 h after each
 * failure (six attempts in all) on timeouts, network errors (connect_failed, tls_failed), 408,
 * 429 and 5xx. Any other answer is final: a 2xx delivers, another status (4xx, 3xx: redirects are
 * not followed) fails at once, and so does a request that cannot be sent as it is (an internal
 * address, a header the HTTP client refuses): sending it again would only fail the same way.
 */
const RETRY_DELAYS_MS = [60_000, 5 * 60_000, 15 * 60_000, 3600_000, 4 * 3600_000] as const;
export const MAX_ATTEMPTS = RETRY_DELAYS_MS.length + 1;

/** What one attempt came to: an HTTP status, or no answer at all (its class). */
export type AttemptResult = { statusCode: number } | { error: OutboundErrorClass };

const RETRIED_ERRORS: ReadonlySet<OutboundErrorClass> = new Set(['timeout', 'connect_failed', 'tls_failed']);

export type Verdict = 'delivered' | 'retry' | 'final';

export function verdictOf(result: AttemptResult): Verdict {
  if (!('statusCode' in result)) return RETRIED_ERRORS.has(result.error) ? 'retry' : 'final';
  const status = result.statusCode;
  if (status >= 200 && status < 300) return 'delivered';
  if (status === 408 || status === 429 || status >= 500) return 'retry';
  return 'final';
}

/** Milliseconds from the failure of attempt `attempt` (1-based) to the next one; null after the last. */
export function retryDelayMs(attempt: number): number | null {
  return RETRY_DELAYS_MS[attempt - 1] ?? null;
}

export type AttemptOutcome = 'delivered' | 'retrying' | 'failed';

/** The outcome of attempt `attempt` and, when it is retried, when the next one is due. */
export function afterAttempt(
  attempt: number,
  result: AttemptResult,
  nowMs: number,
): { outcome: AttemptOutcome; nextAttemptAtMs: number | null } {
  const verdict = verdictOf(result);
  if (verdict === 'delivered') return { outcome: 'delivered', nextAttemptAtMs: null };
  const delay = verdict === 'retry' ? retryDelayMs(attempt) : null;
  return delay === null
    ? { outcome: 'failed', nextAttemptAtMs: null }
    : { outcome: 'retrying', nextAttemptAtMs: nowMs + delay };
}

/** What the attempt records and the deliveries route shows as its error: a class, never socket text. */
export function attemptError(result: AttemptResult): string | null {
  if (!('statusCode' in result)) return result.error;
  return result.statusCode >= 200 && result.statusCode < 300 ? null : httpStatusClass(result.statusCode);
}
