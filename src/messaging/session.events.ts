import type { DomainEvent } from '../commands/decider';

/** Why a session ended, as the wire names it (contract §14). */
export type EndReason = 'REASON_USER_END' | 'REASON_USER_ABANDONED' | 'REASON_NATURAL_END';

export type HandoffFailure = 'no_desk' | 'invalid';
export type SystemLevel = 'SYSTEM_MESSAGE_LEVEL_INFO' | 'SYSTEM_MESSAGE_LEVEL_WARNING' | 'SYSTEM_MESSAGE_LEVEL_ERROR';

/**
 * The events of one messaging session, stream `messaging-session-<id>`. Each one is also a wire
 * event: its sequence is its stream revision + 1, so every process numbers it the same. `at` is
 * in the data (not only in the metadata) because the decider's expiry rule reads it.
 *
 * The messages name the conversation they were said in (`conversationId`): their text is sealed
 * under that conversation's key (src/erasure/personal-fields.ts), so erasing it erases them too.
 * Messages recorded before that carry none, and were stored clear.
 */
export type SessionEvent =
  | DomainEvent<
      'MessagingSessionStarted',
      {
        sessionId: string;
        connectorId: string;
        accountId: string;
        agentId: string;
        environment: string;
        streamingEnabled: boolean;
        platform: string;
        capabilities: Record<string, unknown>;
        at: string;
      }
    >
  | DomainEvent<
      'MessagingServiceAgentJoined',
      { conversationId: string; deploymentId: string; agentName: string; at: string }
    >
  | DomainEvent<
      'MessagingServiceAgentMessageSent',
      { messageId: string; text: string; responseSuggestions: string[]; conversationId?: string; at: string }
    >
  | DomainEvent<
      'MessagingUserMessageReceived',
      { messageId: string; text: string; custom?: unknown; conversationId?: string; at: string }
    >
  | DomainEvent<'MessagingHandoffTriggered', { handoffId: string; destination: string; reason: string; at: string }>
  | DomainEvent<'MessagingHandoffFailed', { handoffId: string; failure: HandoffFailure; message: string; at: string }>
  | DomainEvent<'MessagingHandoffAccepted', { handoffId: string; liveAgentId: string; agentName: string; at: string }>
  | DomainEvent<'MessagingHandoffTimedOut', { handoffId: string; at: string }>
  | DomainEvent<'MessagingLiveAgentJoined', { handoffId: string; liveAgentId: string; agentName: string; at: string }>
  | DomainEvent<
      'MessagingLiveAgentMessageSent',
      {
        messageId: string;
        liveAgentId: string;
        agentName: string;
        text: string;
        conversationId?: string;
        at: string;
      }
    >
  | DomainEvent<'MessagingLiveAgentLeft', { liveAgentId: string; agentName: string; at: string }>
  | DomainEvent<'MessagingSystemMessageRecorded', { level: SystemLevel; message: string; at: string }>
  | DomainEvent<'MessagingSessionEnded', { reason: EndReason; at: string }>;

type SessionEventType = SessionEvent['type'];
export type SessionEventData<T extends SessionEventType> = Extract<SessionEvent, { type: T }>['data'];

export const SESSION_STREAM_PREFIX = 'messaging-session-';
export const sessionStream = (sessionId: string) => `${SESSION_STREAM_PREFIX}${sessionId}`;
export const isSessionEventType = (type: string) => type.startsWith('Messaging');
