import type { DomainEvent } from '../commands/decider';

/** What an endpoint may subscribe to: the webhook event types (webhook-event.ts builds their bodies). */
export const WEBHOOK_EVENT_TYPES = [
  'alerts.triggered',
  'alerts.resolved',
  'conversation.started',
  'conversation.ended',
  'conversation.analysed',
  'handoff.created',
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

/**
 * An endpoint's custom headers (they often hold a receiver's token): the JSON object sealed with
 * the server secret, and a keyed digest of that JSON so a decider can tell a PATCH that changes
 * nothing without opening them. Neither reveals a value to someone who reads the log.
 */
export interface SealedHeaders {
  sealed: string;
  digest: string;
}

/** What a PATCH can change. */
export interface EndpointSettings {
  name: string;
  url: string;
  enabled: boolean;
  eventTypes: WebhookEventType[];
  headers: SealedHeaders;
  timeoutMs: number;
}

/** The signing secret sealed with the server secret (deliveries need it back to sign), and its last four for masked reads. */
export interface SealedSigningSecret {
  sealedSecret: string;
  secretLast4: string;
}

/** The endpoints of one account live in one stream, so the 10-endpoint limit is decided on all of them. */
export type WebhookEndpointsEvent =
  | DomainEvent<
      'WebhookEndpointCreated',
      EndpointSettings & SealedSigningSecret & { endpointId: string; accountId: string; createdAt: string }
    >
  | DomainEvent<
      'WebhookEndpointUpdated',
      { endpointId: string; accountId: string; changes: Partial<EndpointSettings>; updatedAt: string }
    >
  | DomainEvent<
      'WebhookEndpointSecretRotated',
      SealedSigningSecret & { endpointId: string; accountId: string; rotatedAt: string }
    >
  | DomainEvent<'WebhookEndpointDeleted', { endpointId: string; accountId: string; deletedAt: string }>;

export const webhookEndpointsStream = (accountId: string) => `webhook-endpoints-${accountId}`;
