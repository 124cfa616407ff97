import type { OutgoingSms, SmsCarrier } from './sms-carrier.port';

/**
 * The carrier of the embedded setup: no network. Accepting a message is all it does; the outbox
 * then records it as delivered (SmsMessageDelivered), which is what `GET /admin/v1/sms/messages`
 * lists. Its id is derived from the message id, so a repeated send is the same delivery.
 */
export class EmbeddedSmsCarrier implements SmsCarrier {
  readonly name = 'embedded' as const;

  async send(message: OutgoingSms): Promise<{ providerMessageId: string }> {
    return { providerMessageId: `SM${message.messageId.replace(/-/g, '')}` };
  }
}
