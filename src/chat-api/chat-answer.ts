import type { ConversationState } from '../conversations/conversation.decider';

/** Chat API conversation ids (contract §2): `CHAT-<uuid>`. */
export const CHAT_ID_PREFIX = 'CHAT-';

export interface ChatHandoff {
  destination: string;
  reason: string;
  shared_id?: string;
}

/** The body of create and respond (contract §16); `handoff` only on the answer that handed off. */
export function chatAnswer(conversationId: string, response: string, state: ConversationState, handoff?: ChatHandoff) {
  return {
    conversation_id: conversationId,
    response,
    end_conversation: state.ended !== null,
    ...(handoff ? { handoff } : {}),
  };
}
