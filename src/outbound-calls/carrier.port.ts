import type { FailureReason, HungUpBy, QueuedCall } from './outbound-call.events';

/**
 * How a report is stamped: `key` makes a repeated report append nothing; `at` is when it happened
 * on the platform clock (default: now), for carriers that know better than the moment they report.
 */
export interface ReportOptions {
  key?: string;
  at?: string;
}

/** What a carrier reports back as the network moves the call along. Each report is idempotent. */
export interface CallProgress {
  dialing(callSid: string, options?: ReportOptions): Promise<void>;
  ringing(callSid: string, options?: ReportOptions): Promise<void>;
  answered(callSid: string, options?: ReportOptions): Promise<void>;
  ended(
    callSid: string,
    end: { reason: FailureReason; hungUpBy: HungUpBy; sipStatus: number | null },
    options?: ReportOptions,
  ): Promise<void>;
}

/**
 * Places calls on a network. `place` starts the call and returns at once (the call goes on in the
 * background and reports through CallProgress); it may be asked twice for one call after a crash.
 */
export interface Carrier {
  readonly name: 'simulator' | 'sip';
  place(call: QueuedCall): Promise<void>;
  stop(): Promise<void>;
}

export const CARRIER = Symbol('Carrier');
export const CALL_PROGRESS = Symbol('CallProgress');
