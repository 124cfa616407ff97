import type { Config } from '../platform/config/config';

export const WATCHDOG_OWNER = 'outbound-calls:watchdog';

export interface WatchdogPayload {
  callSid: string;
  accountId: string;
}

/** Spare time past the longest a healthy call can take: ringing, then the agent's turn on the line. */
const MARGIN_S = 15 * 60;

/**
 * When a call that is still going is presumed lost (its carrier died with the process that ran
 * it): it is then ended, and its line given back. A healthy call has ended long before.
 */
export function watchdogDueAt(queuedAt: string, outbound: Config['outboundCalls']): string {
  const longest = outbound.ringTimeoutS + (outbound.sip?.holdMs ?? 0) / 1000 + MARGIN_S;
  return new Date(Date.parse(queuedAt) + longest * 1000).toISOString();
}
