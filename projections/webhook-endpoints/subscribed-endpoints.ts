import type { DataSource } from 'typeorm';
import type { Position } from '../../src/event-store/position';
import { andThen, type Awaitable } from '../../src/platform/awaitable';
import { ReadQuery, sqlBoolean } from '../../src/read-models/read-query';
import type { WebhookEventType } from '../../src/webhooks/webhook-endpoint.events';

/** The endpoint fields an attempt needs, as configured now. */
export interface EndpointForDelivery {
  id: string;
  url: string;
  enabled: boolean;
  deleted: boolean;
  timeoutMs: number;
  sealedSecret: string;
  sealedHeaders: string;
}

/**
 * The webhook-endpoints read model as the delivery machinery reads it: statements prepared on its
 * serving generation (synchronous on SQLite, like the outbox; awaited on PostgreSQL), prepared
 * again when a rebuild switches it. `source` throws 503 while the read model's first generation is
 * building.
 */
export class SubscribedEndpoints {
  private readonly anyListener: ReadQuery<{ one: number }>;
  private readonly latestSubscriptions: ReadQuery<{ endpoint_id: string; event_types: string }>;
  private readonly endpoint: ReadQuery<{
    id: string;
    url: string;
    enabled: number | boolean;
    deleted_at: string | null;
    timeout_ms: number;
    sealed_secret: string;
    sealed_headers: string;
  }>;

  constructor(private readonly source: () => DataSource) {
    this.anyListener = new ReadQuery(
      source,
      "SELECT 1 AS one FROM webhook_subscription WHERE event_types <> '[]' LIMIT 1",
    );
    this.latestSubscriptions = new ReadQuery(
      source,
      `SELECT s.endpoint_id, s.event_types FROM webhook_subscription s WHERE s.account_id = ?
       AND s.position = (SELECT max(l.position) FROM webhook_subscription l WHERE l.endpoint_id = s.endpoint_id AND l.position < ?)`,
    );
    this.endpoint = new ReadQuery(
      source,
      'SELECT id, url, enabled, deleted_at, timeout_ms, sealed_secret, sealed_headers FROM webhook_endpoint WHERE id = ?',
    );
  }

  /** Whether the read model can be read now. */
  serving(): boolean {
    try {
      this.source();
      return true;
    } catch {
      return false;
    }
  }

  /**
   * Whether any endpoint ever listened to anything: installations without webhooks skip the
   * lookups (and the stream reads that find a conversation's account) for every event.
   */
  anyEverListened(): Awaitable<boolean> {
    return andThen(this.anyListener.get(), ({ row }) => row !== undefined);
  }

  /**
   * The account's endpoints that listened to `type` just before log position `position`: each
   * endpoint's latest subscription row before it (webhook-endpoints.entities.ts). An endpoint
   * created at P hears the events after P, not those before; one disabled or deleted at D, none
   * after D. Only meaningful once the read model has applied the log up to `position`.
   */
  listeningAt(accountId: string, type: WebhookEventType, position: Position): Awaitable<string[]> {
    return andThen(this.latestSubscriptions.all(accountId, position), ({ rows }) =>
      rows.filter((row) => (JSON.parse(row.event_types) as string[]).includes(type)).map((row) => row.endpoint_id),
    );
  }

  forDelivery(endpointId: string): Awaitable<EndpointForDelivery | undefined> {
    return andThen(this.endpoint.get(endpointId), ({ row }) => {
      if (!row) return undefined;
      return {
        id: row.id,
        url: row.url,
        enabled: sqlBoolean(row.enabled),
        deleted: row.deleted_at !== null,
        timeoutMs: row.timeout_ms,
        sealedSecret: row.sealed_secret,
        sealedHeaders: row.sealed_headers,
      };
    });
  }
}
