import { conversationStream, type TurnData } from '../conversations/conversation.events';
import type { RecordedEvent } from '../event-store/event-store.port';
import type { ProcessManager } from '../process-managers/process-manager';
import type { SmsConversations } from './sms-conversations';

const CONVERSATION_STREAM = conversationStream('');
const SMS_CONVERSATION = conversationStream('SMS-');

export const SMS_SESSIONS_PROCESS = 'sms-sessions';

/**
 * Drives SMS sessions behind the log: each session event becomes its conversation's turn, timers
 * and outgoing texts (sms-conversations.ts); an SMS conversation that ends on its own ends its
 * session. The events of one stream are handled in log order, different streams side by side
 * (one slow model answer does not hold up every other number pair). An external event's answer
 * on an SMS conversation is texted like any other.
 */
export function smsSessionsProcessManager(conversations: SmsConversations): ProcessManager {
  return {
    name: SMS_SESSIONS_PROCESS,
    partitionBy: (event: RecordedEvent) => event.streamId,
    // of the conversation events, only this channel's ends and delayed responses: seeded or other
    // channels' conversations cost nothing
    wants: (event: RecordedEvent) =>
      !event.streamId.startsWith(CONVERSATION_STREAM) ||
      (event.streamId.startsWith(SMS_CONVERSATION) &&
        (event.type !== 'TurnRecorded' || (event.data as TurnData).delayedResponse)),
    handles: {
      SmsSessionOpened: (event) => conversations.opened(event),
      SmsUserMessageReceived: (event) => conversations.userMessage(event),
      SmsIdleWarningSent: (event) => conversations.warned(event),
      SmsSessionEnded: (event) => conversations.sessionEnded(event),
      ConversationEnded: (event) => conversations.conversationEnded(event),
      // an external event's answer: in log order before the end it may bring (same stream, same lane)
      TurnRecorded: (event) => conversations.delayedTurn(event),
    },
  };
}
