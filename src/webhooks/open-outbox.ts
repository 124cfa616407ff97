import type { DataSource } from 'typeorm';
import { forDialect } from '../platform/database/dialect';
import type { WebhookOutbox } from './outbox';
import { PostgresWebhookOutbox } from './postgres-outbox';
import { SqliteWebhookOutbox } from './sqlite-outbox';

/** The webhook outbox in the platform database, whichever database that is. */
export const openWebhookOutbox = (platform: DataSource): WebhookOutbox =>
  forDialect<WebhookOutbox>(platform, {
    sqlite: (s) => new SqliteWebhookOutbox(s),
    postgres: (s) => new PostgresWebhookOutbox(s),
  });
