import type { DomainEvent } from '../commands/decider';

/** The events of an SMS session pair's stream (sms-session.decider.ts decides them). */
/** Where a session's conversation runs: fixed when the session opens (contract §6). */
export interface SmsRoute {
  accountId: string;
  agentId: string;
  connectorId: string;
  /** the number's environment (`dev`, `sandbox`, `live`) */
  numberEnvironment: string;
  /** the deployment environment it maps to (contract §11) */
  environment: string;
  deploymentId: string;
}

export type SmsSessionEndReason = 'idle' | 'agent' | 'replaced';

export type SmsSessionEvent =
  | DomainEvent<
      'SmsSessionOpened',
      {
        conversationId: string;
        agentNumber: string;
        userNumber: string;
        by: 'outbound' | 'inbound';
        route: SmsRoute;
        greeting: string | null;
        openedAt: string;
      }
    >
  | DomainEvent<
      'SmsUserMessageReceived',
      { conversationId: string; text: string; providerMessageId: string; receivedAt: string; generation: number }
    >
  | DomainEvent<'SmsIdleWarningSent', { conversationId: string; text: string; sentAt: string; generation: number }>
  | DomainEvent<'SmsSessionEnded', { conversationId: string; endedAt: string; reason: SmsSessionEndReason }>;
