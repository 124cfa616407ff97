import type { WebhookEndpointsEvent } from '../../src/webhooks/webhook-endpoint.events';
import { defineProjection, handlerFor } from '../../src/read-models/projection';
import type { RowWriter } from '../../src/read-models/row-writer';
import { WebhookEndpointRow, WebhookSubscriptionRow } from './webhook-endpoints.entities';

const on = handlerFor<WebhookEndpointsEvent>();

function listening(rows: RowWriter, endpointId: string, accountId: string, position: string, eventTypes: string[]): void {
  rows.upsert(WebhookSubscriptionRow, { endpointId, position, accountId, eventTypes: JSON.stringify(eventTypes) });
}

/** Endpoints of every account (soft-deleted, so their ids stay taken) and when each listened to what. */
export const webhookEndpointsProjection = defineProjection({
  name: 'webhook-endpoints',
  version: 1,
  entities: [WebhookEndpointRow, WebhookSubscriptionRow],
  handles: {
    WebhookEndpointCreated: on<'WebhookEndpointCreated'>(({ data, position }, _em, rows) => {
      rows.upsert(WebhookEndpointRow, {
        id: data.endpointId,
        accountId: data.accountId,
        name: data.name,
        url: data.url,
        enabled: data.enabled,
        eventTypes: JSON.stringify(data.eventTypes),
        sealedHeaders: data.headers.sealed,
        timeoutMs: data.timeoutMs,
        sealedSecret: data.sealedSecret,
        secretLast4: data.secretLast4,
        createdAt: data.createdAt,
        updatedAt: data.createdAt,
        deletedAt: null,
      });
      listening(rows, data.endpointId, data.accountId, position, data.enabled ? data.eventTypes : []);
    }),
    WebhookEndpointUpdated: on<'WebhookEndpointUpdated'>(({ data, position }, _em, rows) => {
      const { eventTypes, headers, ...plain } = data.changes;
      rows.update(
        WebhookEndpointRow,
        { id: data.endpointId },
        { ...plain, eventTypes: eventTypes && JSON.stringify(eventTypes), sealedHeaders: headers?.sealed, updatedAt: data.updatedAt },
      );
      if (eventTypes === undefined && plain.enabled === undefined) return;
      const row = rows.findOne(WebhookEndpointRow, { id: data.endpointId });
      if (row) listening(rows, data.endpointId, data.accountId, position, row.enabled ? (JSON.parse(row.eventTypes) as string[]) : []);
    }),
    WebhookEndpointSecretRotated: on<'WebhookEndpointSecretRotated'>(({ data }, _em, rows) => {
      rows.update(WebhookEndpointRow, { id: data.endpointId }, { sealedSecret: data.sealedSecret, secretLast4: data.secretLast4, updatedAt: data.rotatedAt });
    }),
    WebhookEndpointDeleted: on<'WebhookEndpointDeleted'>(({ data, position }, _em, rows) => {
      rows.update(WebhookEndpointRow, { id: data.endpointId }, { deletedAt: data.deletedAt, updatedAt: data.deletedAt });
      listening(rows, data.endpointId, data.accountId, position, []);
    }),
  },
});
