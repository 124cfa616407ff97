import { Column, Entity, Index, PrimaryColumn, PrimaryGeneratedColumn } from 'typeorm';

/**
 * The webhook delivery outbox lives in the platform database: an operational queue of the
 * delivery machinery (like timers), not history anyone replays. The endpoints themselves are
 * events on each account's stream and the webhook-endpoints read model. Tables: webhooks.migration.ts.
 */

export type DeliveryStatus = 'pending' | 'delivered' | 'failed' | 'cancelled';

/**
 * One webhook event to one endpoint: the outbox row. Unique on (source event, endpoint), so a
 * replay of the log after a crash queues nothing twice. `payload` is fixed when queued: every
 * attempt sends the same bytes.
 */
@Entity('webhook_delivery')
@Index(['status', 'nextAttemptAt'])
@Index(['sourceEventId', 'endpointId'], { unique: true })
class WebhookDeliveryRow {
  @PrimaryColumn('text') id: string;
  @Column('text', { name: 'endpoint_id' }) endpointId: string;
  @Column('text', { name: 'account_id' }) accountId: string;
  @Column('text', { name: 'source_event_id' }) sourceEventId: string;
  @Column('text', { name: 'event_id' }) eventId: string;
  @Column('text', { name: 'event_type' }) eventType: string;
  @Column('text') payload: string;
  @Column('text') status: DeliveryStatus;
  /** attempts made so far */
  @Column('integer', { default: 0 }) attempts: number;
  /** when the next attempt is due (platform clock); null once the delivery is finished */
  @Column('text', { name: 'next_attempt_at', nullable: true }) nextAttemptAt: string | null;
  /** a worker holds the delivery until then; if it dies, another takes it after */
  @Column('text', { name: 'lease_until', nullable: true }) leaseUntil: string | null;
  @Column('text', { name: 'created_at' }) createdAt: string;
  @Column('text', { name: 'updated_at' }) updatedAt: string;
}

export type AttemptOutcome = 'delivered' | 'retrying' | 'failed';

/** Every attempt, for GET /v1/webhook-endpoints/{id}/deliveries. */
@Entity('webhook_attempt')
@Index(['deliveryId', 'attempt'], { unique: true })
@Index(['endpointId', 'seq'])
class WebhookAttemptRow {
  @PrimaryGeneratedColumn('increment') seq: number;
  @Column('text', { name: 'delivery_id' }) deliveryId: string;
  @Column('text', { name: 'endpoint_id' }) endpointId: string;
  @Column('integer') attempt: number;
  @Column('integer', { name: 'status_code', nullable: true }) statusCode: number | null;
  @Column('text', { nullable: true }) error: string | null;
  @Column('integer', { name: 'duration_ms' }) durationMs: number;
  @Column('text', { name: 'attempted_at' }) attemptedAt: string;
  @Column('text') outcome: AttemptOutcome;
  @Column('text', { name: 'next_attempt_at', nullable: true }) nextAttemptAt: string | null;
}

export const WEBHOOK_ENTITIES = [WebhookDeliveryRow, WebhookAttemptRow];
