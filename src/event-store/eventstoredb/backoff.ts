export interface BackoffPolicy {
  /** Delay before the first retry. */
  initialMs: number;
  /** No delay is ever longer: a subscription keeps retrying at this pace while the server is away. */
  maxMs: number;
  /** Growth per failed attempt. */
  factor: number;
}

export const DEFAULT_BACKOFF: BackoffPolicy = { initialMs: 200, maxMs: 15_000, factor: 2 };

/**
 * Delay before retry number `attempt` (1 for the first). Exponential, capped at maxMs, with
 * "equal jitter": half the delay fixed, half random, so the many subscriptions a server restart
 * drops together do not all come back in the same millisecond.
 */
export function backoffDelay(
  attempt: number,
  policy: BackoffPolicy = DEFAULT_BACKOFF,
  random: () => number = Math.random,
): number {
  const exponent = Math.max(0, Math.floor(attempt) - 1);
  const capped = Math.min(policy.maxMs, policy.initialMs * policy.factor ** exponent);
  return Math.round(capped / 2 + (random() * capped) / 2);
}
