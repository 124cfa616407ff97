import type { Decider, DomainEvent } from '../commands/decider';
import { DomainError } from '../platform/errors/domain-error';

/**
 * The account's concurrent-call limit (contract §17), for outbound and inbound calls alike. One
 * stream per account (`outbound-call-lines-<account>`, named when only outbound calls took lines)
 * holds the limit and the calls in progress; taking a line appends at the revision read, so two
 * requests racing for the last line cannot both win, in one process or several, and the calls in
 * progress are known from the log after any restart.
 */
export type CallLineEvent =
  | DomainEvent<'OutboundCallLineTaken', { accountId: string; callSid: string; at: string }>
  | DomainEvent<'OutboundCallLineReleased', { accountId: string; callSid: string; at: string }>
  | DomainEvent<'CallLimitSet', { accountId: string; concurrentCalls: number; at: string }>;

export interface CallLinesState {
  /** call sid → when its line was taken */
  active: Readonly<Record<string, string>>;
  /** the operator's limit; null: the platform default (OUTBOUND_MAX_CONCURRENT_CALLS) */
  limit: number | null;
}

export type CallLineCommand =
  | { type: 'TakeLine'; accountId: string; callSid: string; defaultLimit: number; retryAfterS: number; now: string }
  | { type: 'ReleaseLine'; accountId: string; callSid: string; now: string }
  | { type: 'SetLimit'; accountId: string; concurrentCalls: number; now: string };

export const callLinesStream = (accountId: string) => `outbound-call-lines-${accountId}`;

export const inProgress = (state: CallLinesState) => Object.keys(state.active).length;

export const effectiveLimit = (state: CallLinesState, defaultLimit: number) => state.limit ?? defaultLimit;

export const callLinesDecider: Decider<CallLinesState, CallLineCommand, CallLineEvent> = {
  initialState: () => ({ active: {}, limit: null }),
  evolve: (state, event) => {
    if (event.type === 'CallLimitSet') return { ...state, limit: event.data.concurrentCalls };
    const active = { ...state.active };
    if (event.type === 'OutboundCallLineTaken') active[event.data.callSid] = event.data.at;
    else delete active[event.data.callSid];
    return { ...state, active };
  },
  decide: (command, state) => {
    if (command.type === 'SetLimit') {
      if (state.limit === command.concurrentCalls) return [];
      return [
        {
          type: 'CallLimitSet',
          data: { accountId: command.accountId, concurrentCalls: command.concurrentCalls, at: command.now },
        },
      ];
    }
    const held = command.callSid in state.active;
    if (command.type === 'ReleaseLine') {
      return held
        ? [
            {
              type: 'OutboundCallLineReleased',
              data: { accountId: command.accountId, callSid: command.callSid, at: command.now },
            },
          ]
        : [];
    }
    if (held) return [];
    const inUse = inProgress(state);
    const limit = effectiveLimit(state, command.defaultLimit);
    if (inUse >= limit) {
      throw new DomainError(
        'CONCURRENT_CALL_LIMIT',
        `this account already has ${inUse} calls in progress (limit ${limit}); retry when one ends`,
        429,
        null,
        [],
        { 'retry-after': String(command.retryAfterS) },
      );
    }
    return [
      {
        type: 'OutboundCallLineTaken',
        data: { accountId: command.accountId, callSid: command.callSid, at: command.now },
      },
    ];
  },
};
