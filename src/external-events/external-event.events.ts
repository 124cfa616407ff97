import type { DomainEvent } from '../commands/decider';

/**
 * One delivery to the webhook, durably recorded before the 201. Its stream is the event id's
 * (`external-event-<agent>-<id>`) and its event id is derived from the id and the body, so a
 * repeated delivery of the same id and body appends nothing. The body is kept as delivered
 * (base64 of the bytes) with its content type.
 */
type ExternalEventDeliveryEvent = DomainEvent<
  'ExternalEventDelivered',
  {
    eventId: string;
    accountId: string;
    agentId: string;
    conversationId: string;
    name: string;
    contentType: string;
    body: string;
    bodySha256: string;
    deliveredAt: string;
  }
>;

export type ExternalEventDelivered = ExternalEventDeliveryEvent['data'];

export const externalEventStream = (agentId: string, eventId: string) => `external-event-${agentId}-${eventId}`;
