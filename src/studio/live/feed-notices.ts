import { isTestConversationStream } from '../../conversations/conversation.events';

export type NoticeType = 'CONVERSATION_STARTED' | 'CONVERSATION_UPDATED' | 'CONVERSATION_ENDED';

const STREAM_PREFIX = 'conversation-';

/**
 * What a batch the conversations read model applied means to a list on screen, one notice per
 * conversation: ended if it ended in the batch, else started if it started in it, else updated.
 * Test conversations (agent test runs) are not in the read model and get none.
 */
export function feedNotices(batch: ReadonlyArray<{ streamId: string; type: string }>): Map<string, NoticeType> {
  const notices = new Map<string, NoticeType>();
  for (const event of batch) {
    if (!event.streamId.startsWith(STREAM_PREFIX) || isTestConversationStream(event.streamId)) continue;
    const id = event.streamId.slice(STREAM_PREFIX.length);
    const before = notices.get(id);
    if (event.type === 'ConversationEnded') notices.set(id, 'CONVERSATION_ENDED');
    else if (event.type === 'ConversationStarted' && before !== 'CONVERSATION_ENDED')
      notices.set(id, 'CONVERSATION_STARTED');
    else if (!before) notices.set(id, 'CONVERSATION_UPDATED');
  }
  return notices;
}
