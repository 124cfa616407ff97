import type { RecordedEvent } from '../event-store/event-store.port';
import type { ProcessManager } from '../read-models/process-manager';
import type { SmsConversations } from './sms-conversations';

const SMS_CONVERSATION = 'conversation-SMS-';

/**
 * Drives SMS sessions behind the log: each session event becomes its conversation's turn, timers
 * and outgoing texts (sms-conversations.ts); an SMS conversation that ends on its own ends its
 * session. The events of one stream are handled in log order, different streams side by side
 * (one slow model answer does not hold up every other number pair).
 */
export function smsSessionsProcessManager(conversations: SmsConversations): ProcessManager {
  return {
    name: 'sms-sessions',
    partitionBy: (event: RecordedEvent) => event.streamId,
    handles: {
      SmsSessionOpened: (event) => conversations.opened(event),
      SmsUserMessageReceived: (event) => conversations.userMessage(event),
      SmsIdleWarningSent: (event) => conversations.warned(event),
      SmsSessionEnded: (event) => conversations.sessionEnded(event),
      ConversationEnded: async (event) => {
        // only conversations of this channel: seeded or other channels' ends cost nothing
        if (event.streamId.startsWith(SMS_CONVERSATION)) await conversations.conversationEnded(event);
      },
    },
  };
}
