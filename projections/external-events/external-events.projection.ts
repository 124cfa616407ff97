import type { ConversationEvent } from '../../src/conversations/conversation.events';
import { defineProjection, handlerFor } from '../../src/read-models/projection';
import { AwaitedExternalEventRow } from './external-events.entities';

const on = handlerFor<ConversationEvent>();
const conversationOf = (streamId: string) => streamId.slice('conversation-'.length);

/** Which conversation awaits an external event id: how the webhook binds a delivery (src/external-events). */
export const externalEventsProjection = defineProjection({
  name: 'external-events',
  version: 1,
  entities: [AwaitedExternalEventRow],
  handles: {
    ExternalEventAwaited: on<'ExternalEventAwaited'>(async ({ data, streamId }, _em, rows) => {
      await rows.upsert(AwaitedExternalEventRow, { eventId: data.eventId, conversationId: conversationOf(streamId), name: data.name, receivedAt: null });
    }),
    ExternalEventReceived: on<'ExternalEventReceived'>(async ({ data }, _em, rows) => {
      await rows.update(AwaitedExternalEventRow, { eventId: data.eventId }, { receivedAt: data.receivedAt });
    }),
  },
});
