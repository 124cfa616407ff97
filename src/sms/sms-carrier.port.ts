/** One text the platform sends to a user. `messageId` is stable across retries of the same message. */
export interface OutgoingSms {
  messageId: string;
  conversationId: string;
  from: string;
  to: string;
  text: string;
}

/** A send the carrier refused or could not take; `retryable` says whether trying later may help. */
export class SmsCarrierError extends Error {
  constructor(
    message: string,
    readonly retryable: boolean,
  ) {
    super(message);
    this.name = 'SmsCarrierError';
  }
}

/**
 * Sends texts on a network. `send` resolves once the carrier has accepted the message, with the
 * carrier's id for it; it throws SmsCarrierError when it did not.
 */
export interface SmsCarrier {
  readonly name: 'embedded' | 'http';
  send(message: OutgoingSms): Promise<{ providerMessageId: string }>;
}

export const SMS_CARRIER = Symbol('SmsCarrier');
