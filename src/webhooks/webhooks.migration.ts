import type { MigrationInterface, QueryRunner } from 'typeorm';

/** The platform tables of the webhook delivery outbox (webhooks.entities.ts). */
export class WebhookOutbox1763942400000 implements MigrationInterface {
  name = 'WebhookOutbox1763942400000';
  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE webhook_delivery (
      id TEXT PRIMARY KEY NOT NULL, endpoint_id TEXT NOT NULL, account_id TEXT NOT NULL, source_event_id TEXT NOT NULL,
      event_id TEXT NOT NULL, event_type TEXT NOT NULL, payload TEXT NOT NULL, status TEXT NOT NULL,
      attempts INTEGER NOT NULL DEFAULT 0, next_attempt_at TEXT, lease_until TEXT, created_at TEXT NOT NULL, updated_at TEXT NOT NULL)`);
    await q.query('CREATE INDEX idx_webhook_delivery_due ON webhook_delivery (status, next_attempt_at)');
    await q.query('CREATE UNIQUE INDEX idx_webhook_delivery_source ON webhook_delivery (source_event_id, endpoint_id)');
    await q.query(`CREATE TABLE webhook_attempt (
      seq INTEGER PRIMARY KEY AUTOINCREMENT NOT NULL, delivery_id TEXT NOT NULL, endpoint_id TEXT NOT NULL, attempt INTEGER NOT NULL,
      status_code INTEGER, error TEXT, duration_ms INTEGER NOT NULL, attempted_at TEXT NOT NULL, outcome TEXT NOT NULL, next_attempt_at TEXT)`);
    await q.query('CREATE UNIQUE INDEX idx_webhook_attempt_delivery ON webhook_attempt (delivery_id, attempt)');
    await q.query('CREATE INDEX idx_webhook_attempt_endpoint ON webhook_attempt (endpoint_id, seq)');
  }
  async down(q: QueryRunner): Promise<void> {
    for (const table of ['webhook_attempt', 'webhook_delivery']) await q.query(`DROP TABLE ${table}`);
  }
}
