import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/**
 * Webhook endpoints as configured now: what the Webhooks API shows and what the delivery worker
 * sends with (URL, timeout, sealed secret and headers at the moment of each attempt).
 */
@Entity('webhook_endpoint')
@Index(['accountId', 'deletedAt'])
export class WebhookEndpointRow {
  /** `whe_<id>` */
  @PrimaryColumn('text') id: string;
  @Column('text', { name: 'account_id' }) accountId: string;
  @Column('text') name: string;
  @Column('text') url: string;
  @Column('boolean') enabled: boolean;
  /** JSON array of WebhookEventType, in the order given */
  @Column('text', { name: 'event_types' }) eventTypes: string;
  /** JSON object of custom headers, sealed with the server secret */
  @Column('text', { name: 'sealed_headers' }) sealedHeaders: string;
  @Column('integer', { name: 'timeout_ms' }) timeoutMs: number;
  /** the signing secret, sealed with the server secret */
  @Column('text', { name: 'sealed_secret' }) sealedSecret: string;
  @Column('text', { name: 'secret_last4' }) secretLast4: string;
  @Column('text', { name: 'created_at' }) createdAt: string;
  @Column('text', { name: 'updated_at' }) updatedAt: string;
  @Column('text', { name: 'deleted_at', nullable: true }) deletedAt: string | null;
}

/**
 * What an endpoint listened to from a log position on: one row per creation, deletion, and change
 * of `enabled` or `event_types`. The process manager that fills the outbox matches an event at
 * position Q against the latest row before Q, so who receives an event is decided by the log
 * alone: the same on a live run, a late run and a replay, however far this read model has got.
 */
@Entity('webhook_subscription')
@Index(['accountId', 'position'])
export class WebhookSubscriptionRow {
  @PrimaryColumn('text', { name: 'endpoint_id' }) endpointId: string;
  /** log position of the event that set it (text, ordered as the log) */
  @PrimaryColumn('text') position: string;
  @Column('text', { name: 'account_id' }) accountId: string;
  /** JSON array of the event types delivered from then on; empty while disabled and once deleted */
  @Column('text', { name: 'event_types' }) eventTypes: string;
}
