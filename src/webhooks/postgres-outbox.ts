import type { DataSource } from 'typeorm';
import { pgQueries, pgTransaction, type PgQueries } from '../platform/database/pg-queries';
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

interface ClaimedRow {
  id: string;
  endpoint_id: string;
  event_id: string;
  payload: string;
  attempts: number;
  next_attempt_at: string;
}

/**
 * The outbox in PostgreSQL, shared by every process of a scaled set. Claims lock the due rows
 * FOR UPDATE SKIP LOCKED and lease them in the same statement, so workers in different processes
 * never take the same delivery and never wait on each other's claims.
 */
export class PostgresWebhookOutbox extends WebhookOutbox {
  private readonly q: PgQueries;

  constructor(private readonly platform: DataSource) {
    super();
    this.q = pgQueries(platform);
  }

  async enqueue(
    accountId: string,
    event: WebhookEvent,
    sourceEventId: string,
    endpointIds: string[],
    nowIso: string,
  ): Promise<number> {
    if (endpointIds.length === 0) return 0;
    // one statement for all endpoints: atomic without a transaction of its own
    return this.q.affected(
      `INSERT INTO webhook_delivery (id, endpoint_id, account_id, source_event_id, event_id, event_type, payload, status, attempts, next_attempt_at, lease_until, created_at, updated_at)
       SELECT d.id, d.endpoint_id, $3, $4, $5, $6, $7, 'pending', 0, $8, NULL, $8, $8 FROM unnest($1::text[], $2::text[]) AS d(id, endpoint_id)
       ON CONFLICT DO NOTHING`,
      [
        endpointIds.map((endpointId) => deliveryId(sourceEventId, endpointId)),
        endpointIds,
        accountId,
        sourceEventId,
        event.id,
        event.type,
        JSON.stringify(event),
        nowIso,
      ],
    );
  }

  async claimDue(nowMs: number, limit: number, leaseMs: number, skip: ReadonlySet<string>): Promise<ClaimedDelivery[]> {
    const rows = await this.q.rows<ClaimedRow>(
      `UPDATE webhook_delivery SET lease_until = $1
       WHERE id IN (
         SELECT id FROM webhook_delivery
         WHERE status = 'pending' AND next_attempt_at <= $2 AND (lease_until IS NULL OR lease_until <= $2) AND NOT (id = ANY($3))
         ORDER BY next_attempt_at LIMIT $4 FOR UPDATE SKIP LOCKED)
       RETURNING id, endpoint_id, event_id, payload, attempts, next_attempt_at`,
      [new Date(nowMs + leaseMs).toISOString(), new Date(nowMs).toISOString(), [...skip], limit],
    );
    return rows
      .sort((a, b) => (a.next_attempt_at < b.next_attempt_at ? -1 : a.next_attempt_at > b.next_attempt_at ? 1 : 0))
      .map((r) => ({
        id: r.id,
        endpointId: r.endpoint_id,
        eventId: r.event_id,
        payload: r.payload,
        attempts: r.attempts,
      }));
  }

  async renew(ids: string[], untilIso: string): Promise<void> {
    await this.q.affected(`UPDATE webhook_delivery SET lease_until = $1 WHERE id = ANY($2) AND status = 'pending'`, [
      untilIso,
      ids,
    ]);
  }

  async recordAttempt(delivery: ClaimedDelivery, record: AttemptRecord): Promise<boolean> {
    const status: DeliveryStatus = record.outcome === 'retrying' ? 'pending' : record.outcome;
    return pgTransaction(this.platform, async (q) => {
      const changed = await q.affected(
        `UPDATE webhook_delivery SET attempts = $1, status = $2, next_attempt_at = $3, lease_until = NULL, updated_at = $4
         WHERE id = $5 AND attempts = $6 AND status = 'pending'`,
        [record.attempt, status, record.nextAttemptAt, record.attemptedAt, delivery.id, record.attempt - 1],
      );
      if (changed === 0) return false;
      await q.affected(
        `INSERT INTO webhook_attempt (delivery_id, endpoint_id, attempt, status_code, error, duration_ms, attempted_at, outcome, next_attempt_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
        [
          delivery.id,
          delivery.endpointId,
          record.attempt,
          record.statusCode,
          record.error,
          record.durationMs,
          record.attemptedAt,
          record.outcome,
          record.nextAttemptAt,
        ],
      );
      return true;
    });
  }

  async cancel(deliveryId: string, nowIso: string): Promise<void> {
    await this.q.affected(
      "UPDATE webhook_delivery SET status = 'cancelled', next_attempt_at = NULL, lease_until = NULL, updated_at = $1 WHERE id = $2 AND status = 'pending'",
      [nowIso, deliveryId],
    );
  }

  async cancelPending(endpointId: string, nowIso: string): Promise<number> {
    return this.q.affected(
      "UPDATE webhook_delivery SET status = 'cancelled', next_attempt_at = NULL, lease_until = NULL, updated_at = $1 WHERE endpoint_id = $2 AND status = 'pending'",
      [nowIso, endpointId],
    );
  }

  async attempts(endpointId: string, limit: number): Promise<AttemptListing[]> {
    return this.q.rows<AttemptListing>(
      `SELECT a.delivery_id, d.event_id, d.event_type, a.attempt, a.status_code, a.error, a.duration_ms, a.attempted_at, a.outcome, a.next_attempt_at, d.status AS delivery_status
       FROM webhook_attempt a JOIN webhook_delivery d ON d.id = a.delivery_id WHERE a.endpoint_id = $1 ORDER BY a.seq DESC LIMIT $2`,
      [endpointId, limit],
    );
  }

  async nextDueAt(): Promise<string | null> {
    const [row] = await this.q.rows<{ due: string | null }>(
      "SELECT min(greatest(next_attempt_at, coalesce(lease_until, ''))) AS due FROM webhook_delivery WHERE status = 'pending'",
    );
    return row.due;
  }

  async prune(beforeIso: string): Promise<number> {
    return pgTransaction(this.platform, async (q) => {
      await q.affected(
        'DELETE FROM webhook_attempt WHERE delivery_id IN (SELECT id FROM webhook_delivery WHERE status = ANY($1) AND updated_at < $2)',
        [STATUS_FINISHED, beforeIso],
      );
      return q.affected('DELETE FROM webhook_delivery WHERE status = ANY($1) AND updated_at < $2', [
        STATUS_FINISHED,
        beforeIso,
      ]);
    });
  }
}
