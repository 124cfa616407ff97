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
};

const STREAM_PREFIXES = ['conversation-', 'sms-messages-'];

/** The conversation whose key seals a stream's events; null for a stream that holds no personal data. */
export function conversationOfStream(streamId: string): string | null {
  for (const prefix of STREAM_PREFIXES) if (streamId.startsWith(prefix)) return streamId.slice(prefix.length);
  return null;
}
