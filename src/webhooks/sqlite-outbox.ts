import type Database from 'better-sqlite3';
import type { DataSource } from 'typeorm';
import { rawConnection, syncTransaction } from '../platform/database/raw-connection';
import {
  deliveryId,
  STATUS_FINISHED,
  WebhookOutbox,
  type AttemptListing,
  type AttemptRecord,
  type ClaimedDelivery,
} from './outbox';
import type { DeliveryStatus } from './webhooks.entities';
import type { WebhookEvent } from './webhook-event';

/**
 * The outbox in the platform SQLite file. Every write that must be atomic is one synchronous
 * transaction on the shared connection (raw-connection.ts), with statements prepared once.
 */
export class SqliteWebhookOutbox extends WebhookOutbox {
  private readonly statements = new Map<string, Database.Statement>();

  constructor(private readonly platform: DataSource) {
    super();
  }

  private sql(text: string): Database.Statement {
    let statement = this.statements.get(text);
    if (!statement) this.statements.set(text, (statement = rawConnection(this.platform).prepare(text)));
    return statement;
  }

  async enqueue(
    accountId: string,
    event: WebhookEvent,
    sourceEventId: string,
    endpointIds: string[],
    nowIso: string,
  ): Promise<number> {
    if (endpointIds.length === 0) return 0;
    const payload = JSON.stringify(event);
    return syncTransaction(this.platform, () => {
      const insert = this
        .sql(`INSERT INTO webhook_delivery (id, endpoint_id, account_id, source_event_id, event_id, event_type, payload, status, attempts, next_attempt_at, lease_until, created_at, updated_at)
        VALUES (?, ?, ?, ?, ?, ?, ?, 'pending', 0, ?, NULL, ?, ?) ON CONFLICT DO NOTHING`);
      let added = 0;
      for (const endpointId of endpointIds) {
        added += insert.run(
          deliveryId(sourceEventId, endpointId),
          endpointId,
          accountId,
          sourceEventId,
          event.id,
          event.type,
          payload,
          nowIso,
          nowIso,
          nowIso,
        ).changes;
      }
      return added;
    });
  }

  async claimDue(nowMs: number, limit: number, leaseMs: number, skip: ReadonlySet<string>): Promise<ClaimedDelivery[]> {
    const now = new Date(nowMs).toISOString();
    const leaseUntil = new Date(nowMs + leaseMs).toISOString();
    return syncTransaction(this.platform, () => {
      const rows = this.sql(
        `SELECT id, endpoint_id, event_id, payload, attempts FROM webhook_delivery
        WHERE status = 'pending' AND next_attempt_at <= ? AND (lease_until IS NULL OR lease_until <= ?) ORDER BY next_attempt_at LIMIT ?`,
      ).all(now, now, limit + skip.size) as Array<{
        id: string;
        endpoint_id: string;
        event_id: string;
        payload: string;
        attempts: number;
      }>;
      const claimed = rows.filter((r) => !skip.has(r.id)).slice(0, limit);
      const lease = this.sql('UPDATE webhook_delivery SET lease_until = ? WHERE id = ?');
      for (const row of claimed) lease.run(leaseUntil, row.id);
      return claimed.map((r) => ({
        id: r.id,
        endpointId: r.endpoint_id,
        eventId: r.event_id,
        payload: r.payload,
        attempts: r.attempts,
      }));
    });
  }

  async renew(ids: string[], untilIso: string): Promise<void> {
    syncTransaction(this.platform, () => {
      const renew = this.sql("UPDATE webhook_delivery SET lease_until = ? WHERE id = ? AND status = 'pending'");
      for (const id of ids) renew.run(untilIso, id);
    });
  }

  async recordAttempt(delivery: ClaimedDelivery, record: AttemptRecord): Promise<boolean> {
    const status: DeliveryStatus = record.outcome === 'retrying' ? 'pending' : record.outcome;
    return syncTransaction(this.platform, () => {
      const changed = this.sql(
        `UPDATE webhook_delivery SET attempts = ?, status = ?, next_attempt_at = ?, lease_until = NULL, updated_at = ?
        WHERE id = ? AND attempts = ? AND status = 'pending'`,
      ).run(record.attempt, status, record.nextAttemptAt, record.attemptedAt, delivery.id, record.attempt - 1).changes;
      if (changed === 0) return false;
      this.sql(
        `INSERT INTO webhook_attempt (delivery_id, endpoint_id, attempt, status_code, error, duration_ms, attempted_at, outcome, next_attempt_at)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      ).run(
        delivery.id,
        delivery.endpointId,
        record.attempt,
        record.statusCode,
        record.error,
        record.durationMs,
        record.attemptedAt,
        record.outcome,
        record.nextAttemptAt,
      );
      return true;
    });
  }

  async cancel(deliveryId: string, nowIso: string): Promise<void> {
    this.sql(
      "UPDATE webhook_delivery SET status = 'cancelled', next_attempt_at = NULL, lease_until = NULL, updated_at = ? WHERE id = ? AND status = 'pending'",
    ).run(nowIso, deliveryId);
  }

  async cancelPending(endpointId: string, nowIso: string): Promise<number> {
    return this.sql(
      "UPDATE webhook_delivery SET status = 'cancelled', next_attempt_at = NULL, lease_until = NULL, updated_at = ? WHERE endpoint_id = ? AND status = 'pending'",
    ).run(nowIso, endpointId).changes;
  }

  async attempts(endpointId: string, limit: number): Promise<AttemptListing[]> {
    return this.sql(
      `SELECT a.delivery_id, d.event_id, d.event_type, a.attempt, a.status_code, a.error, a.duration_ms, a.attempted_at, a.outcome, a.next_attempt_at, d.status AS delivery_status
       FROM webhook_attempt a JOIN webhook_delivery d ON d.id = a.delivery_id WHERE a.endpoint_id = ? ORDER BY a.seq DESC LIMIT ?`,
    ).all(endpointId, limit) as AttemptListing[];
  }

  async nextDueAt(): Promise<string | null> {
    const row = this.sql(
      "SELECT min(max(next_attempt_at, coalesce(lease_until, ''))) AS due FROM webhook_delivery WHERE status = 'pending'",
    ).get() as { due: string | null };
    return row.due;
  }

  async prune(beforeIso: string): Promise<number> {
    return syncTransaction(this.platform, () => {
      const placeholders = STATUS_FINISHED.map(() => '?').join(', ');
      this.sql(
        `DELETE FROM webhook_attempt WHERE delivery_id IN (SELECT id FROM webhook_delivery WHERE status IN (${placeholders}) AND updated_at < ?)`,
      ).run(...STATUS_FINISHED, beforeIso);
      return this.sql(`DELETE FROM webhook_delivery WHERE status IN (${placeholders}) AND updated_at < ?`).run(
        ...STATUS_FINISHED,
        beforeIso,
      ).changes;
    });
  }
}
