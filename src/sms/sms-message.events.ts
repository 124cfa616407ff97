import type { DomainEvent } from '../commands/decider';

interface SentMessage {
  messageId: string;
  conversationId: string;
  from: string;
  to: string;
  text: string;
  carrier: 'embedded' | 'http';
}

/** What became of each text the platform sent: one stream per conversation, its SMS audit. */
export type SmsMessageEvent =
  | DomainEvent<'SmsMessageDelivered', SentMessage & { providerMessageId: string; deliveredAt: string }>
  | DomainEvent<'SmsMessageFailed', SentMessage & { error: string; failedAt: string }>;

export const smsMessagesStream = (conversationId: string) => `sms-messages-${conversationId}`;
