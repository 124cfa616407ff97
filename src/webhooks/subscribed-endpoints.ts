import type Database from 'better-sqlite3';
import type { DataSource } from 'typeorm';
import type { Position } from '../event-store/position';
import { rawConnection } from '../platform/database/raw-connection';
import type { WebhookEventType } from './webhook-event';

/** The read model of webhook endpoints (projections/webhook-endpoints). */
export const ENDPOINTS_READ_MODEL = 'webhook-endpoints';

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
 * The webhook-endpoints read model as the delivery machinery reads it: prepared statements on its
 * read-only connection (synchronous, like the outbox), prepared again when a rebuild switches the
 * serving file. `source` throws 503 while the read model's first generation is building.
 */
export class SubscribedEndpoints {
  private prepared: { source: DataSource; statements: Map<string, Database.Statement> } | null = null;

  constructor(private readonly source: () => DataSource) {}

  private sql(text: string): Database.Statement {
    const source = this.source();
    if (this.prepared?.source !== source) this.prepared = { source, statements: new Map() };
    let statement = this.prepared.statements.get(text);
    if (!statement) this.prepared.statements.set(text, (statement = rawConnection(source).prepare(text)));
    return statement;
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
  anyEverListened(): boolean {
    return this.sql("SELECT 1 FROM webhook_subscription WHERE event_types <> '[]' LIMIT 1").get() !== undefined;
  }

  /**
   * The account's endpoints that listened to `type` just before log position `position`: each
   * endpoint's latest subscription row before it (webhook-endpoints.entities.ts). An endpoint
   * created at P hears the events after P, not those before; one disabled or deleted at D, none
   * after D. Only meaningful once the read model has applied the log up to `position`.
   */
  listeningAt(accountId: string, type: WebhookEventType, position: Position): string[] {
    const rows = this.sql(
      `SELECT s.endpoint_id, s.event_types FROM webhook_subscription s WHERE s.account_id = ?
       AND s.position = (SELECT max(l.position) FROM webhook_subscription l WHERE l.endpoint_id = s.endpoint_id AND l.position < ?)`,
    ).all(accountId, position) as Array<{ endpoint_id: string; event_types: string }>;
    return rows.filter((row) => (JSON.parse(row.event_types) as string[]).includes(type)).map((row) => row.endpoint_id);
  }

  forDelivery(endpointId: string): EndpointForDelivery | undefined {
    const row = this.sql('SELECT id, url, enabled, deleted_at, timeout_ms, sealed_secret, sealed_headers FROM webhook_endpoint WHERE id = ?').get(endpointId) as
      | { id: string; url: string; enabled: number; deleted_at: string | null; timeout_ms: number; sealed_secret: string; sealed_headers: string }
      | undefined;
    if (!row) return undefined;
    return {
      id: row.id,
      url: row.url,
      enabled: row.enabled === 1,
      deleted: row.deleted_at !== null,
      timeoutMs: row.timeout_ms,
      sealedSecret: row.sealed_secret,
      sealedHeaders: row.sealed_headers,
    };
  }
}
