import { Inject, Injectable } from '@nestjs/common';
import type { Logger } from 'pino';
import { EVENT_STORE, type EventStore } from '../event-store/event-store.port';
import { Clock } from '../platform/clock/clock';
import { LOGGER } from '../platform/logging/logger';
import { toNewEvents } from '../commands/command-handler';
import { Timers, type DueTimer } from '../process-managers/timers';
import { smsMessagesStream, type SmsMessageEvent } from './sms-message.events';
import { SMS_CARRIER, SmsCarrierError, type OutgoingSms, type SmsCarrier } from './sms-carrier.port';

export const SEND_OWNER = 'sms-send';
/** After the n-th failed attempt, the next one waits this long (platform clock); then the message is failed. */
const BACKOFF_MS = [30_000, 120_000, 600_000, 3600_000];

interface SendPayload {
  key: string;
  conversationId: string;
  messages: OutgoingSms[];
  attempt: number;
}

const recordedId = (messageId: string) => `sms-sent:${messageId}`;

/**
 * The durable outbox of outgoing texts, on the durable timers: a batch (the texts of one agent
 * turn, in order) is a timer due now. A process claims it with a lease, sends what is not yet
 * recorded, and records each accepted text on the conversation's `sms-messages-` stream under an
 * id derived from the message id; a crash in between lets the lease run out and the batch run
 * again, skipping what was recorded. So nothing is lost, and a text is sent twice only when the
 * process dies between the carrier's acceptance and its record (never with the embedded carrier,
 * whose acceptance is the record).
 */
@Injectable()
export class SmsOutbox {
  constructor(
    private readonly timers: Timers,
    @Inject(EVENT_STORE) private readonly store: EventStore,
    private readonly clock: Clock,
    @Inject(SMS_CARRIER) private readonly carrier: SmsCarrier,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  /** Idempotent on `key`: queueing the same batch again changes nothing. */
  async enqueue(key: string, messages: OutgoingSms[]): Promise<void> {
    if (messages.length === 0) return;
    const payload: SendPayload = { key, conversationId: messages[0].conversationId, messages, attempt: 1 };
    await this.timers.schedule({ id: `sms-send:${key}:1`, owner: SEND_OWNER, dueAt: this.clock.nowIso(), payload });
  }

  /**
   * Erasure of a conversation (contract §24): its texts still waiting to go out are not sent, and
   * no timer keeps them (a sent batch's timer kept none already). Its message ids are derived, so
   * its quoted id names its batches alone.
   */
  forget(conversationId: string): Promise<number> {
    return this.timers.forgetPayloads(SEND_OWNER, JSON.stringify(conversationId));
  }

  readonly handler = async (timer: DueTimer<SendPayload>): Promise<void> => {
    const { key, conversationId, messages, attempt } = timer.payload;
    const settled = await this.settledIds(conversationId);
    for (const message of messages) {
      if (settled.has(message.messageId)) continue;
      let providerMessageId: string;
      try {
        providerMessageId = (await this.carrier.send(message)).providerMessageId;
      } catch (error) {
        if (!(error instanceof SmsCarrierError)) throw error;
        if (error.retryable && attempt <= BACKOFF_MS.length) {
          // the rest of the batch waits behind this text: the user reads them in order
          const dueAt = new Date(this.clock.nowMs() + BACKOFF_MS[attempt - 1]).toISOString();
          this.logger.warn({ messageId: message.messageId, attempt, err: error.message }, 'SMS send failed; retrying');
          await this.timers.schedule({
            id: `sms-send:${key}:${attempt + 1}`,
            owner: SEND_OWNER,
            dueAt,
            payload: { ...timer.payload, attempt: attempt + 1 },
          });
          return;
        }
        this.logger.error({ messageId: message.messageId, attempt, err: error.message }, 'SMS send failed for good');
        await this.record(message, {
          type: 'SmsMessageFailed',
          data: { ...this.sent(message), error: error.message, failedAt: this.clock.nowIso() },
        });
        continue;
      }
      await this.record(message, {
        type: 'SmsMessageDelivered',
        data: { ...this.sent(message), providerMessageId, deliveredAt: this.clock.nowIso() },
      });
    }
  };

  private sent(message: OutgoingSms) {
    const { messageId, conversationId, from, to, text } = message;
    return { messageId, conversationId, from, to, text, carrier: this.carrier.name };
  }

  private async record(message: OutgoingSms, event: SmsMessageEvent): Promise<void> {
    const context = {
      actor: 'system:sms',
      correlationId: message.messageId,
      idempotencyKey: recordedId(message.messageId),
    };
    await this.store.append(
      smsMessagesStream(message.conversationId),
      toNewEvents([event], context, this.clock),
      'any',
    );
  }

  private async settledIds(conversationId: string): Promise<Set<string>> {
    const events = await this.store.readStream(smsMessagesStream(conversationId));
    return new Set(events.map((e) => (e.data as { messageId: string }).messageId));
  }
}
