import type Database from 'better-sqlite3';
import type { DataSource } from 'typeorm';
import { rawConnection, syncTransaction } from '../platform/database/raw-connection';

/** A webhook_endpoint row as stored (webhooks.entities.ts). */
export interface EndpointRecord {
  id: string;
  account_id: string;
  name: string;
  url: string;
  enabled: number;
  event_types: string;
  sealed_headers: string;
  timeout_ms: number;
  sealed_secret: string;
  secret_last4: string;
  created_at: string;
  updated_at: string;
  deleted_at: string | null;
}

export type EndpointChanges = Partial<Pick<EndpointRecord, 'name' | 'url' | 'enabled' | 'event_types' | 'sealed_headers' | 'timeout_ms' | 'sealed_secret' | 'secret_last4'>>;

/** One attempt with its delivery, for the deliveries route. */
export interface AttemptListing {
  delivery_id: string;
  event_id: string;
  event_type: string;
  attempt: number;
  status_code: number | null;
  error: string | null;
  duration_ms: number;
  attempted_at: string;
  outcome: string;
  next_attempt_at: string | null;
  delivery_status: string;
}

const COLUMNS = ['id', 'account_id', 'name', 'url', 'enabled', 'event_types', 'sealed_headers', 'timeout_ms', 'sealed_secret', 'secret_last4', 'created_at', 'updated_at', 'deleted_at'] as const;
const CHANGEABLE = new Set(['name', 'url', 'enabled', 'event_types', 'sealed_headers', 'timeout_ms', 'sealed_secret', 'secret_last4']);

/** Endpoint records of the platform database; deleted ones stay, marked, and count for nothing. */
export class WebhookEndpointStore {
  constructor(private readonly platform: DataSource) {}

  private get db(): Database.Database {
    return rawConnection(this.platform);
  }

  /** Inserts unless the account already has `limit` live endpoints, atomically; false when full. */
  insertWithinLimit(record: EndpointRecord, limit: number): boolean {
    return syncTransaction(this.platform, (db) => {
      const { n } = db.prepare('SELECT count(*) AS n FROM webhook_endpoint WHERE account_id = ? AND deleted_at IS NULL').get(record.account_id) as { n: number };
      if (n >= limit) return false;
      db.prepare(`INSERT INTO webhook_endpoint (${COLUMNS.join(', ')}) VALUES (${COLUMNS.map(() => '?').join(', ')})`).run(...COLUMNS.map((c) => record[c]));
      return true;
    });
  }

  /** A live endpoint of the account; undefined for deleted ones and other accounts' */
  find(accountId: string, id: string): EndpointRecord | undefined {
    return this.db.prepare('SELECT * FROM webhook_endpoint WHERE id = ? AND account_id = ? AND deleted_at IS NULL').get(id, accountId) as EndpointRecord | undefined;
  }

  list(accountId: string): EndpointRecord[] {
    return this.db.prepare('SELECT * FROM webhook_endpoint WHERE account_id = ? AND deleted_at IS NULL ORDER BY created_at, id').all(accountId) as EndpointRecord[];
  }

  update(id: string, changes: EndpointChanges, nowIso: string): void {
    const names = Object.keys(changes).filter((name) => CHANGEABLE.has(name) && changes[name as keyof EndpointChanges] !== undefined);
    if (names.length === 0) return;
    const sets = [...names.map((name) => `${name} = ?`), 'updated_at = ?'];
    this.db.prepare(`UPDATE webhook_endpoint SET ${sets.join(', ')} WHERE id = ? AND deleted_at IS NULL`).run(...names.map((name) => changes[name as keyof EndpointChanges]), nowIso, id);
  }

  /** Marks it deleted and cancels what it still had to receive, together. */
  delete(id: string, nowIso: string): void {
    syncTransaction(this.platform, (db) => {
      db.prepare('UPDATE webhook_endpoint SET deleted_at = ?, updated_at = ? WHERE id = ? AND deleted_at IS NULL').run(nowIso, nowIso, id);
      db.prepare("UPDATE webhook_delivery SET status = 'cancelled', next_attempt_at = NULL, lease_until = NULL, updated_at = ? WHERE endpoint_id = ? AND status = 'pending'").run(nowIso, id);
    });
  }

  /** The endpoint's latest attempts, newest first. */
  attempts(endpointId: string, limit: number): AttemptListing[] {
    return this.db
      .prepare(
        `SELECT a.delivery_id, d.event_id, d.event_type, a.attempt, a.status_code, a.error, a.duration_ms, a.attempted_at, a.outcome, a.next_attempt_at, d.status AS delivery_status
         FROM webhook_attempt a JOIN webhook_delivery d ON d.id = a.delivery_id WHERE a.endpoint_id = ? ORDER BY a.seq DESC LIMIT ?`,
      )
      .all(endpointId, limit) as AttemptListing[];
  }
}
