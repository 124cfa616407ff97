import type { DataSource } from 'typeorm';
import { ALERT_TABLES } from './alerts/alert-tables';
import { openPlatformDatabase } from './platform/database/platform-database';
import type { PlatformTables } from './platform/database/platform-tables';
import { TOPIC_VECTOR_TABLES } from './runtime/vectors/topic-vector-tables';
import { WEBHOOK_TABLES } from './webhooks/webhook-tables';

/** Every context's tables in the platform database. A context that adds some lists them here. */
export const CONTEXT_TABLES: readonly PlatformTables[] = [ALERT_TABLES, WEBHOOK_TABLES, TOPIC_VECTOR_TABLES];

/** The platform database with every table of the app: for the server, the CLIs and tests. */
export function openAppDatabase(dataDir: string, databaseUrl: string | null = null): Promise<DataSource> {
  return openPlatformDatabase(dataDir, databaseUrl, CONTEXT_TABLES);
}
