import type { Decider } from '../commands/decider';
import { conflict, DomainError } from '../platform/errors/domain-error';
import {
  STATUS_RETENTION_MS,
  type CallStatus,
  type FailureReason,
  type HungUpBy,
  type OutboundCallEvent,
  type QueuedCall,
} from './outbound-call.events';

export interface OutboundCallState {
  call: QueuedCall | null;
  status: CallStatus | null;
  ringing: boolean;
  answeredAt: string | null;
  endedAt: string | null;
  reason: FailureReason | null;
}

export type OutboundCallCommand =
  | { type: 'QueueCall'; call: QueuedCall }
  | { type: 'Dial'; now: string }
  | { type: 'Ring'; now: string }
  | { type: 'Answer'; now: string }
  /** `reason` says why a call that never connected failed; a connected call ends as a success whatever ends it. */
  | { type: 'EndCall'; reason: FailureReason; hungUpBy: HungUpBy; sipStatus: number | null; now: string };

const initialState = (): OutboundCallState => ({
  call: null,
  status: null,
  ringing: false,
  answeredAt: null,
  endedAt: null,
  reason: null,
});

function evolve(s: OutboundCallState, event: OutboundCallEvent): OutboundCallState {
  switch (event.type) {
    case 'OutboundCallQueued':
      return { ...s, call: event.data, status: 'queued' };
    case 'OutboundCallDialing':
      return { ...s, status: 'calling' };
    case 'OutboundCallRinging':
      return { ...s, ringing: true };
    case 'OutboundCallAnswered':
      return { ...s, answeredAt: event.data.at };
    case 'OutboundCallEnded':
      return { ...s, status: event.data.status, reason: event.data.reason, endedAt: event.data.at };
  }
}

const notFound = () => new DomainError('CALL_NOT_FOUND', 'no such call', 404);

/**
 * The call's life: queued → calling → success | failure. Carriers report what the network did,
 * possibly late or twice (retransmissions, timers firing again after a crash): a report that no
 * longer changes anything decides nothing rather than failing.
 */
function decide(command: OutboundCallCommand, s: OutboundCallState): OutboundCallEvent[] {
  if (command.type === 'QueueCall') {
    if (s.call) throw conflict('CALL_EXISTS', 'this call already exists');
    return [{ type: 'OutboundCallQueued', data: command.call }];
  }
  if (!s.call) throw notFound();
  const callSid = s.call.callSid;
  if (s.endedAt !== null) return [];
  const dialing: OutboundCallEvent[] =
    s.status === 'queued' ? [{ type: 'OutboundCallDialing', data: { callSid, at: command.now } }] : [];
  switch (command.type) {
    case 'Dial':
      return dialing;
    case 'Ring':
      return s.ringing || s.answeredAt
        ? dialing
        : [...dialing, { type: 'OutboundCallRinging', data: { callSid, at: command.now } }];
    case 'Answer':
      return s.answeredAt ? [] : [...dialing, { type: 'OutboundCallAnswered', data: { callSid, at: command.now } }];
    case 'EndCall': {
      const connected = s.answeredAt !== null;
      return [
        {
          type: 'OutboundCallEnded',
          data: {
            callSid,
            status: connected ? 'success' : 'failure',
            reason: connected ? null : command.reason,
            hungUpBy: command.hungUpBy,
            sipStatus: command.sipStatus,
            at: command.now,
          },
        },
      ];
    }
  }
}

export const outboundCallDecider: Decider<OutboundCallState, OutboundCallCommand, OutboundCallEvent> = {
  initialState,
  evolve,
  decide,
};

/** What the status route shows; null once the retention after the end has passed (then: 404). */
export function statusView(
  s: OutboundCallState,
  nowMs: number,
): { call_sid: string; status: CallStatus; reason: FailureReason | null } | null {
  if (!s.call || !s.status) return null;
  if (s.endedAt !== null && nowMs >= Date.parse(s.endedAt) + STATUS_RETENTION_MS) return null;
  return { call_sid: s.call.callSid, status: s.status, reason: s.reason };
}
