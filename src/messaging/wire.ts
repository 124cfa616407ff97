import type { RecordedEvent } from '../event-store/event-store.port';
import type { SessionEvent, SystemLevel } from './session.events';

/** The five kinds a client may send (contract §14). */
export const CLIENT_KINDS = [
  'EVENT_TYPE_REQUEST_SERVICE_AGENT_JOIN',
  'EVENT_TYPE_USER_MESSAGE',
  'EVENT_TYPE_USER_TYPING',
  'EVENT_TYPE_USER_END_SESSION',
  'EVENT_TYPE_HEARTBEAT',
] as const;
export type ClientKind = (typeof CLIENT_KINDS)[number];

/** Kinds only the server sends: a client sending one is told it is not allowed. */
export const SERVER_KINDS = [
  'EVENT_TYPE_SESSION_START',
  'EVENT_TYPE_SERVICE_AGENT_JOINED',
  'EVENT_TYPE_SERVICE_AGENT_THINKING',
  'EVENT_TYPE_SERVICE_AGENT_MESSAGE',
  'EVENT_TYPE_SERVICE_AGENT_MESSAGE_CHUNK',
  'EVENT_TYPE_SERVICE_AGENT_TRIGGERED_HANDOFF',
  'EVENT_TYPE_LIVE_AGENT_JOINED',
  'EVENT_TYPE_LIVE_AGENT_MESSAGE',
  'EVENT_TYPE_LIVE_AGENT_TYPING',
  'EVENT_TYPE_LIVE_AGENT_LEFT',
  'EVENT_TYPE_HANDOFF_ACCEPTED',
  'EVENT_TYPE_HANDOFF_FAILED',
  'EVENT_TYPE_HANDOFF_TIMEOUT',
  'EVENT_TYPE_SYSTEM_MESSAGE',
  'EVENT_TYPE_SESSION_END',
  'EVENT_TYPE_EVENT_BATCH',
] as const;

/**
 * What travels on the socket. `sequence` numbers the session's stored events (1, 2, ...); transient
 * events (typing, thinking, chunks, heartbeats, errors about one client message) carry null.
 */
export interface WireEvent {
  id: string;
  type: string;
  timestamp: string;
  sequence: number | null;
  payload: Record<string, unknown>;
  metadata: { custom?: unknown };
}

/** A stored session event's sequence: its stream revision + 1, the same on every process. */
export const sequenceOf = (revision: bigint) => Number(revision) + 1;

/** The stored event as the client sees it. */
export function toWire(event: RecordedEvent): WireEvent {
  const e = event as unknown as SessionEvent;
  const base = {
    id: event.id,
    timestamp: e.data.at,
    sequence: sequenceOf(event.revision),
    metadata: {} as WireEvent['metadata'],
  };
  switch (e.type) {
    case 'MessagingSessionStarted':
      return {
        ...base,
        type: 'EVENT_TYPE_SESSION_START',
        payload: { session_id: e.data.sessionId, capabilities: e.data.capabilities },
      };
    case 'MessagingServiceAgentJoined':
      return {
        ...base,
        type: 'EVENT_TYPE_SERVICE_AGENT_JOINED',
        payload: { agent_name: e.data.agentName, conversation_id: e.data.conversationId },
      };
    case 'MessagingServiceAgentMessageSent':
      return {
        ...base,
        type: 'EVENT_TYPE_SERVICE_AGENT_MESSAGE',
        payload: {
          message_id: e.data.messageId,
          text: e.data.text,
          attachments: [],
          response_suggestions: e.data.responseSuggestions,
        },
      };
    case 'MessagingUserMessageReceived':
      return {
        ...base,
        type: 'EVENT_TYPE_USER_MESSAGE',
        payload: { message_id: e.data.messageId, text: e.data.text },
        metadata: e.data.custom !== undefined ? { custom: e.data.custom } : {},
      };
    case 'MessagingHandoffTriggered':
      return {
        ...base,
        type: 'EVENT_TYPE_SERVICE_AGENT_TRIGGERED_HANDOFF',
        payload: { handoff_id: e.data.handoffId, destination: e.data.destination, reason: e.data.reason },
      };
    case 'MessagingHandoffFailed':
      return {
        ...base,
        type: 'EVENT_TYPE_HANDOFF_FAILED',
        payload: { handoff_id: e.data.handoffId, reason: e.data.failure, message: e.data.message },
      };
    case 'MessagingHandoffAccepted':
      return {
        ...base,
        type: 'EVENT_TYPE_HANDOFF_ACCEPTED',
        payload: { handoff_id: e.data.handoffId, agent_name: e.data.agentName },
      };
    case 'MessagingHandoffTimedOut':
      return { ...base, type: 'EVENT_TYPE_HANDOFF_TIMEOUT', payload: { handoff_id: e.data.handoffId } };
    case 'MessagingLiveAgentJoined':
      return { ...base, type: 'EVENT_TYPE_LIVE_AGENT_JOINED', payload: { agent_name: e.data.agentName } };
    case 'MessagingLiveAgentMessageSent':
      return {
        ...base,
        type: 'EVENT_TYPE_LIVE_AGENT_MESSAGE',
        payload: { message_id: e.data.messageId, agent_name: e.data.agentName, text: e.data.text },
      };
    case 'MessagingLiveAgentLeft':
      return { ...base, type: 'EVENT_TYPE_LIVE_AGENT_LEFT', payload: { agent_name: e.data.agentName } };
    case 'MessagingSystemMessageRecorded':
      return { ...base, type: 'EVENT_TYPE_SYSTEM_MESSAGE', payload: { level: e.data.level, message: e.data.message } };
    case 'MessagingSessionEnded':
      return { ...base, type: 'EVENT_TYPE_SESSION_END', payload: { reason: e.data.reason } };
  }
}

/** An event that is not stored: it reaches the sockets open now and is never replayed. */
export function transient(
  id: string,
  type: string,
  timestamp: string,
  payload: Record<string, unknown>,
  custom?: unknown,
): WireEvent {
  return { id, type, timestamp, sequence: null, payload, metadata: custom !== undefined ? { custom } : {} };
}

export function systemMessage(
  id: string,
  timestamp: string,
  message: string,
  custom?: unknown,
  level: SystemLevel = 'SYSTEM_MESSAGE_LEVEL_ERROR',
): WireEvent {
  return transient(id, 'EVENT_TYPE_SYSTEM_MESSAGE', timestamp, { level, message }, custom);
}

/** Splits an answer into the pieces a streaming client receives before the whole message: they concatenate back to it. */
export function chunkText(text: string, wordsPerChunk = 4): string[] {
  const parts = text.match(/\S+\s*|\s+/g) ?? [];
  const chunks: string[] = [];
  for (let i = 0; i < parts.length; i += wordsPerChunk) chunks.push(parts.slice(i, i + wordsPerChunk).join(''));
  return chunks.length > 0 ? chunks : [''];
}
