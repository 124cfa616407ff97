import type { WebhookEndpointsEvent } from '../../src/webhooks/webhook-endpoint.events';
import { defineProjection, handlerFor } from '../../src/read-models/projection';
import type { Awaitable, Rows } from '../../src/read-models/apply/rows';
import { WebhookEndpointRow, WebhookSubscriptionRow } from './webhook-endpoints.entities';
import { WEBHOOK_ENDPOINTS_READ_MODEL } from './name';

const on = handlerFor<WebhookEndpointsEvent>();

function listening(
  rows: Rows,
  endpointId: string,
  accountId: string,
  position: string,
  eventTypes: string[],
): Awaitable<void> {
  return rows.upsert(WebhookSubscriptionRow, {
    endpointId,
    position,
    accountId,
    eventTypes: JSON.stringify(eventTypes),
  });
}

/** Endpoints of every account (soft-deleted, so their ids stay taken) and when each listened to what. */
export const webhookEndpointsProjection = defineProjection({
  name: WEBHOOK_ENDPOINTS_READ_MODEL,
  version: 1,
  entities: [WebhookEndpointRow, WebhookSubscriptionRow],
  handles: {
    WebhookEndpointCreated: on<'WebhookEndpointCreated'>(async ({ data, position }, _em, rows) => {
      await rows.upsert(WebhookEndpointRow, {
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
      await listening(rows, data.endpointId, data.accountId, position, data.enabled ? data.eventTypes : []);
    }),
    WebhookEndpointUpdated: on<'WebhookEndpointUpdated'>(async ({ data, position }, _em, rows) => {
      const { eventTypes, headers, ...plain } = data.changes;
      await rows.update(
        WebhookEndpointRow,
        { id: data.endpointId },
        {
          ...plain,
          eventTypes: eventTypes && JSON.stringify(eventTypes),
          sealedHeaders: headers?.sealed,
          updatedAt: data.updatedAt,
        },
      );
      if (eventTypes === undefined && plain.enabled === undefined) return;
      const row = await rows.findOne(WebhookEndpointRow, { id: data.endpointId });
      if (row)
        await listening(
          rows,
          data.endpointId,
          data.accountId,
          position,
          row.enabled ? (JSON.parse(row.eventTypes) as string[]) : [],
        );
    }),
    WebhookEndpointSecretRotated: on<'WebhookEndpointSecretRotated'>(async ({ data }, _em, rows) => {
      await rows.update(
        WebhookEndpointRow,
        { id: data.endpointId },
        { sealedSecret: data.sealedSecret, secretLast4: data.secretLast4, updatedAt: data.rotatedAt },
      );
    }),
    WebhookEndpointDeleted: on<'WebhookEndpointDeleted'>(async ({ data, position }, _em, rows) => {
      await rows.update(
        WebhookEndpointRow,
        { id: data.endpointId },
        { deletedAt: data.deletedAt, updatedAt: data.deletedAt },
      );
      await listening(rows, data.endpointId, data.accountId, position, []);
    }),
  },
});
