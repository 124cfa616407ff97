import type { Decider, DomainEvent } from '../commands/decider';
import { DomainError } from '../platform/errors/domain-error';

/**
 * The account's concurrent-call limit. One stream per account (`outbound-call-lines-<account>`)
 * holds the calls in progress; taking a line appends at the revision read, so two requests racing
 * for the last line cannot both win, in one process or several.
 */
export type CallLineEvent =
  | DomainEvent<'OutboundCallLineTaken', { accountId: string; callSid: string; at: string }>
  | DomainEvent<'OutboundCallLineReleased', { accountId: string; callSid: string; at: string }>;

export interface CallLinesState {
  /** call sid → when its line was taken */
  active: Readonly<Record<string, string>>;
}

export type CallLineCommand =
  | { type: 'TakeLine'; accountId: string; callSid: string; limit: number; retryAfterS: number; now: string }
  | { type: 'ReleaseLine'; accountId: string; callSid: string; now: string };

export const callLinesStream = (accountId: string) => `outbound-call-lines-${accountId}`;

export const callLinesDecider: Decider<CallLinesState, CallLineCommand, CallLineEvent> = {
  initialState: () => ({ active: {} }),
  evolve: (state, event) => {
    const active = { ...state.active };
    if (event.type === 'OutboundCallLineTaken') active[event.data.callSid] = event.data.at;
    else delete active[event.data.callSid];
    return { active };
  },
  decide: (command, state) => {
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
    const inUse = Object.keys(state.active).length;
    if (inUse >= command.limit) {
      throw new DomainError(
        'CONCURRENT_CALL_LIMIT',
        `this account already has ${inUse} calls in progress (limit ${command.limit}); retry when one ends`,
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
