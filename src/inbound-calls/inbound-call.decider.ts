import type { Decider, DomainEvent } from '../commands/decider';
import { conflict } from '../platform/errors/domain-error';

/** Why a call never reached the agent; `cancelled`: it stopped ringing first (a SIP CANCEL, the platform stopping). */
export type InboundFailure = 'concurrent-call-limit' | 'no-deployment' | 'cancelled';
/** `hold-limit`: the caller held the call (SIP re-INVITE) past SIP_HOLD_LIMIT_S and Parley hung up */
export type HungUpBy = 'caller' | 'agent' | 'platform' | 'hold-limit';

export interface RingingCall {
  callSid: string;
  accountId: string;
  agentId: string;
  environment: string;
  from: string;
  to: string;
  at: string;
}

/** One inbound call's progress (contract §18), on `inbound-call-<call sid>`; its conversation has the same id. */
export type InboundCallEvent =
  | DomainEvent<'InboundCallRinging', RingingCall>
  | DomainEvent<'InboundCallAnswered', { callSid: string; deploymentId: string; dniReservationId: string; at: string }>
  | DomainEvent<'InboundCallEnded', { callSid: string; hungUpBy: HungUpBy; at: string }>
  | DomainEvent<'InboundCallFailed', { callSid: string; reason: InboundFailure; at: string }>;

type InboundCallStatus = 'ringing' | 'answered' | 'ended' | 'failed';

export interface InboundCallState {
  call: RingingCall | null;
  status: InboundCallStatus | null;
  reason: InboundFailure | null;
}

export type InboundCallCommand =
  | { type: 'Ring'; call: RingingCall }
  | { type: 'Answer'; deploymentId: string; dniReservationId: string; now: string }
  | { type: 'End'; hungUpBy: HungUpBy; now: string }
  | { type: 'Fail'; reason: InboundFailure; now: string };

export const inboundCallStream = (callSid: string) => `inbound-call-${callSid}`;
export const INBOUND_CALL_SID = /^IN-[0-9a-f-]{36}$/;

export const inboundCallDecider: Decider<InboundCallState, InboundCallCommand, InboundCallEvent> = {
  initialState: () => ({ call: null, status: null, reason: null }),
  evolve: (state, event) => {
    switch (event.type) {
      case 'InboundCallRinging':
        return { ...state, call: event.data, status: 'ringing' };
      case 'InboundCallAnswered':
        return { ...state, status: 'answered' };
      case 'InboundCallEnded':
        return { ...state, status: 'ended' };
      case 'InboundCallFailed':
        return { ...state, status: 'failed', reason: event.data.reason };
    }
  },
  decide: (command, state) => {
    if (command.type === 'Ring') {
      if (state.call) throw conflict('CALL_EXISTS', 'this call exists');
      return [{ type: 'InboundCallRinging', data: command.call }];
    }
    if (!state.call) throw conflict('CALL_NOT_RINGING', 'no such call');
    const callSid = state.call.callSid;
    switch (command.type) {
      case 'Answer':
        if (state.status !== 'ringing') return [];
        return [
          {
            type: 'InboundCallAnswered',
            data: {
              callSid,
              deploymentId: command.deploymentId,
              dniReservationId: command.dniReservationId,
              at: command.now,
            },
          },
        ];
      case 'Fail':
        if (state.status !== 'ringing') return [];
        return [{ type: 'InboundCallFailed', data: { callSid, reason: command.reason, at: command.now } }];
      case 'End':
        // a call that never connected fails instead; one that ended stays as it ended
        if (state.status !== 'answered') return [];
        return [{ type: 'InboundCallEnded', data: { callSid, hungUpBy: command.hungUpBy, at: command.now } }];
    }
  },
};
