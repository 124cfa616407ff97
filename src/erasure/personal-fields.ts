import { ERASED_TEXT as ERASED } from '../conversations/conversation.events';

/**
 * The personal fields of each event of a conversation's streams, with what each reads as after
 * erasure: what people said and were told, what the agent remembered of them, their numbers.
 * Everything else (times, counts, topic names, outcomes) stays clear, so analytics and the audit
 * trail survive an erasure.
 */
export const PERSONAL_FIELDS: Readonly<Record<string, Readonly<Record<string, unknown>>>> = {
  ConversationStarted: { fromNumber: ERASED, toNumber: ERASED },
  TurnRecorded: {
    userInput: ERASED,
    agentResponse: ERASED,
    entities: {},
    inputMetadata: {},
    functionEvents: [],
    dtmf: ERASED,
  },
  StateChanged: { changes: {} },
  HandoffRequested: { data: {} },
  ExternalEventReceived: { body: '' },
  ConversationAnalysed: { summary: ERASED, fields: {} },
  // SMS texts sent in the conversation (stream sms-messages-<conversation id>)
  SmsMessageDelivered: { text: ERASED, to: ERASED },
  SmsMessageFailed: { text: ERASED, to: ERASED },
  // an SMS session's texts (stream sms-session-<agent number>-<user number>); its numbers name the stream
  SmsSessionOpened: { greeting: ERASED },
  SmsUserMessageReceived: { text: ERASED },
  // a web chat session's messages (stream messaging-session-<session id>), as a reconnecting client replays them
  MessagingUserMessageReceived: { text: ERASED, custom: {} },
  MessagingServiceAgentMessageSent: { text: ERASED, responseSuggestions: [] },
  MessagingLiveAgentMessageSent: { text: ERASED },
};

/** Streams of one conversation each: the conversation id is the rest of the stream id. */
const CONVERSATION_STREAMS = ['conversation-', 'sms-messages-'];
/**
 * Streams of a channel's session, which may hold several conversations one after another (an SMS
 * number pair's sessions, a web chat session joined again after a handoff): each event names the
 * conversation it belongs to in its clear `conversationId`.
 */
const SESSION_STREAMS = ['sms-session-', 'messaging-session-'];

/**
 * The key that seals an event's personal fields: that of the conversation it belongs to, read from
 * the stream id or, on a session's stream, from the event's clear `conversationId` (so erasing one
 * conversation of a session leaves the others readable). Null: the event is stored clear (a
 * stream without personal data, or a session event of no conversation).
 */
export function sealingKeyOf(streamId: string, data: unknown): string | null {
  for (const prefix of CONVERSATION_STREAMS) if (streamId.startsWith(prefix)) return streamId.slice(prefix.length);
  for (const prefix of SESSION_STREAMS)
    if (streamId.startsWith(prefix)) {
      const id =
        data !== null && typeof data === 'object' ? (data as { conversationId?: unknown }).conversationId : null;
      return typeof id === 'string' && id !== '' ? id : null;
    }
  return null;
}
