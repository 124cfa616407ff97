import type { PlatformTables } from '../platform/database/platform-tables';
import { WEBHOOK_ENTITIES } from './webhooks.entities';
import { PgWebhookOutbox1763942400000, WebhookOutbox1763942400000 } from './webhooks.migration';

/** The webhook outbox's tables in the platform database (src/app.database.ts lists them). */
export const WEBHOOK_TABLES: PlatformTables = {
  entities: WEBHOOK_ENTITIES,
  sqliteMigrations: [WebhookOutbox1763942400000],
  postgresMigrations: [PgWebhookOutbox1763942400000],
};
