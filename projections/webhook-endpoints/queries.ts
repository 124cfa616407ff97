import { IsNull, type DataSource } from 'typeorm';
import type { Plain, ReadModelSources } from '../query-kit';
import { SubscribedEndpoints } from './subscribed-endpoints';
import { WebhookEndpointRow } from './webhook-endpoints.entities';

export { SubscribedEndpoints } from './subscribed-endpoints';
import { WEBHOOK_ENDPOINTS_READ_MODEL } from './name';

export { WEBHOOK_ENDPOINTS_READ_MODEL } from './name';

/** The read model's name, for read-your-writes waits. */

export type WebhookEndpoint = Plain<WebhookEndpointRow>;

/** The webhook-endpoints read model's queries for the management API (the delivery side reads SubscribedEndpoints). */
export interface WebhookEndpointsQueries {
  /** The account's live endpoints, oldest first. */
  endpointsOf(accountId: string): Promise<WebhookEndpoint[]>;
  /** A live endpoint of the account. */
  endpoint(accountId: string, endpointId: string): Promise<WebhookEndpoint | null>;
}

class WebhookEndpointsReadModel implements WebhookEndpointsQueries {
  constructor(private readonly source: () => DataSource) {}

  endpointsOf(accountId: string) {
    return this.source()
      .getRepository(WebhookEndpointRow)
      .find({ where: { accountId, deletedAt: IsNull() }, order: { createdAt: 'ASC', id: 'ASC' } });
  }

  endpoint(accountId: string, endpointId: string) {
    return this.source()
      .getRepository(WebhookEndpointRow)
      .findOneBy({ id: endpointId, accountId, deletedAt: IsNull() });
  }
}

/** The management API's queries on whichever generation serves now (one implementation for both databases). */
export function webhookEndpointsQueries(readModels: ReadModelSources): WebhookEndpointsQueries {
  return new WebhookEndpointsReadModel(() => readModels.source(WEBHOOK_ENDPOINTS_READ_MODEL));
}

/** The delivery side's prepared lookups on whichever generation serves now. */
export function subscribedEndpoints(readModels: ReadModelSources): SubscribedEndpoints {
  return new SubscribedEndpoints(() => readModels.source(WEBHOOK_ENDPOINTS_READ_MODEL));
}
