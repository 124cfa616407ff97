import { conversationStream, ERASED_TEXT, type ConversationEvent } from '../../src/conversations/conversation.events';
import type { SmsMessageEvent } from '../../src/sms/sms-message.events';
import type { SmsSessionEvent } from '../../src/sms/sms-session.events';
import { defineProjection, handlerFor } from '../../src/read-models/projection';
import { SmsMessageRow, SmsSessionRow } from './sms-sessions.entities';
import { SMS_SESSIONS_READ_MODEL } from './name';

const on = handlerFor<SmsSessionEvent | SmsMessageEvent | ConversationEvent>();
const CONVERSATION_PREFIX = conversationStream('');

/** SMS sessions and the texts the carrier took (GET /admin/v1/sms/messages). */
export const smsSessionsProjection = defineProjection({
  name: SMS_SESSIONS_READ_MODEL,
  // v2: an erased conversation's texts are scrubbed (rows stored before v2 are, by the rebuild)
  version: 2,
  entities: [SmsMessageRow, SmsSessionRow],
  handles: {
    SmsSessionOpened: on<'SmsSessionOpened'>(async ({ data }, _em, rows) => {
      await rows.upsert(SmsSessionRow, {
        conversationId: data.conversationId,
        agentNumber: data.agentNumber,
        userNumber: data.userNumber,
        agentId: data.route.agentId,
        environment: data.route.environment,
        status: 'active',
        openedAt: data.openedAt,
        lastActivityAt: data.openedAt,
        endReason: null,
      });
    }),
    SmsUserMessageReceived: on<'SmsUserMessageReceived'>(async ({ data }, _em, rows) => {
      await rows.update(
        SmsSessionRow,
        { conversationId: data.conversationId },
        { status: 'active', lastActivityAt: data.receivedAt },
      );
    }),
    SmsIdleWarningSent: on<'SmsIdleWarningSent'>(async ({ data }, _em, rows) => {
      await rows.update(
        SmsSessionRow,
        { conversationId: data.conversationId },
        { status: 'warning', lastActivityAt: data.sentAt },
      );
    }),
    SmsSessionEnded: on<'SmsSessionEnded'>(async ({ data }, _em, rows) => {
      await rows.update(
        SmsSessionRow,
        { conversationId: data.conversationId },
        { status: 'ended', endReason: data.reason },
      );
    }),
    SmsMessageDelivered: on<'SmsMessageDelivered'>(async ({ data, position }, _em, rows) => {
      const { messageId, conversationId, from, to, text, carrier, providerMessageId, deliveredAt } = data;
      await rows.upsert(SmsMessageRow, {
        id: messageId,
        seq: position,
        conversationId,
        fromNumber: from,
        toNumber: to,
        text,
        status: 'delivered',
        carrier,
        providerMessageId,
        error: null,
        at: deliveredAt,
      });
    }),
    SmsMessageFailed: on<'SmsMessageFailed'>(async ({ data, position }, _em, rows) => {
      const { messageId, conversationId, from, to, text, carrier, error, failedAt } = data;
      await rows.upsert(SmsMessageRow, {
        id: messageId,
        seq: position,
        conversationId,
        fromNumber: from,
        toNumber: to,
        text,
        status: 'failed',
        carrier,
        providerMessageId: '',
        error,
        at: failedAt,
      });
    }),
    // contract §24: what a rebuild reads of the sealed text and number once the key is destroyed
    ConversationErased: on<'ConversationErased'>(async ({ streamId }, _em, rows) => {
      await rows.update(
        SmsMessageRow,
        { conversationId: streamId.slice(CONVERSATION_PREFIX.length) },
        { text: ERASED_TEXT, toNumber: ERASED_TEXT },
      );
    }),
  },
});
