import type { DomainEvent } from '../commands/decider';

/** Contract §10: how the media of the call is protected (transport / media). */
export const ENCRYPTIONS = ['UDP/RTP', 'UDP/SRTP', 'TLS/RTP', 'TLS/SRTP'] as const;
export type Encryption = (typeof ENCRYPTIONS)[number];

export type CallStatus = 'queued' | 'calling' | 'success' | 'failure';
/** `busy` and `no-answer` are contract §10's; the rest name what a real carrier can also report. */
export type FailureReason = 'busy' | 'no-answer' | 'rejected' | 'unreachable' | 'error';
export type HungUpBy = 'callee' | 'agent' | null;
type CarrierName = 'simulator' | 'sip';

export interface QueuedCall {
  callSid: string;
  accountId: string;
  agentId: string;
  deploymentId: string;
  /** the deployment environment the agent answers from */
  environment: string;
  /** the agent's provisioned number: the caller id */
  fromNumber: string;
  toNumber: string;
  countryCode: string | null;
  metadata: Record<string, string>;
  encryption: Encryption;
  carrier: CarrierName;
  queuedAt: string;
}

export type OutboundCallEvent =
  | DomainEvent<'OutboundCallQueued', QueuedCall>
  | DomainEvent<'OutboundCallDialing', { callSid: string; at: string }>
  | DomainEvent<'OutboundCallRinging', { callSid: string; at: string }>
  | DomainEvent<'OutboundCallAnswered', { callSid: string; at: string }>
  | DomainEvent<
      'OutboundCallEnded',
      {
        callSid: string;
        status: 'success' | 'failure';
        reason: FailureReason | null;
        hungUpBy: HungUpBy;
        sipStatus: number | null;
        at: string;
      }
    >;

export const outboundCallStream = (callSid: string) => `outbound-call-${callSid}`;

/** How long the status of an ended call stays readable (interface.md: about 2 hours). */
export const STATUS_RETENTION_MS = 2 * 3600 * 1000;

/** The ids this API hands out: `OUT-` and a UUID. Anything else is not a call of ours. */
export const CALL_SID = /^OUT-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
