import type { ConversationEvent } from '../../src/conversations/conversation.events';
import { defineProjection, handlerFor } from '../../src/read-models/projection';
import { AwaitedExternalEventRow, ExternalEventConversationRow } from './external-events.entities';
import { EXTERNAL_EVENTS_READ_MODEL } from './name';

const on = handlerFor<ConversationEvent>();
const conversationOf = (streamId: string) => streamId.slice('conversation-'.length);

/**
 * Which conversation awaits an external event id, and whose it is: how the webhook checks and
 * binds a delivery (src/external-events). v2: the owner is on the awaited row (one lookup per
 * delivery instead of a second one in the conversations read model).
 */
export const externalEventsProjection = defineProjection({
  name: EXTERNAL_EVENTS_READ_MODEL,
  version: 2,
  entities: [AwaitedExternalEventRow, ExternalEventConversationRow],
  handles: {
    ConversationStarted: on<'ConversationStarted'>(async ({ data }, _em, rows) => {
      await rows.upsert(ExternalEventConversationRow, {
        conversationId: data.conversationId,
        accountId: data.accountId,
        agentId: data.agentId,
      });
    }),
    ExternalEventAwaited: on<'ExternalEventAwaited'>(async ({ data, streamId }, _em, rows) => {
      const conversationId = conversationOf(streamId);
      const owner = await rows.findOne(ExternalEventConversationRow, { conversationId });
      // A conversation always starts before it awaits anything; without its start it has no owner to match.
      if (!owner) return;
      await rows.upsert(AwaitedExternalEventRow, {
        eventId: data.eventId,
        conversationId,
        name: data.name,
        accountId: owner.accountId,
        agentId: owner.agentId,
        receivedAt: null,
      });
    }),
    ExternalEventReceived: on<'ExternalEventReceived'>(async ({ data }, _em, rows) => {
      await rows.update(AwaitedExternalEventRow, { eventId: data.eventId }, { receivedAt: data.receivedAt });
    }),
  },
});
