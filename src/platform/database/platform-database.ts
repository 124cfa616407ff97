import path from 'node:path';
import type { DataSource } from 'typeorm';
import { PLATFORM_ENTITIES } from './platform.entities';
import { PLATFORM_MIGRATIONS } from './migrations';
import { openPostgresDataSource } from './postgres-data-source';
import { PLATFORM_POSTGRES_MIGRATIONS } from './postgres-migrations';
import { openSqliteDataSource } from './sqlite-data-source';

/**
 * Idempotency records, timers, process checkpoints, the read-model registry, alert evaluations and
 * the webhook outbox: `DATA_DIR/platform.sqlite`, or the PostgreSQL database at `databaseUrl`
 * (READ_MODEL_DB=postgres), which every process of a scaled set shares. Both by migrations.
 */
export function openPlatformDatabase(dataDir: string, databaseUrl: string | null = null): Promise<DataSource> {
  if (databaseUrl !== null) {
    return openPostgresDataSource({
      url: databaseUrl,
      entities: PLATFORM_ENTITIES,
      migrations: PLATFORM_POSTGRES_MIGRATIONS,
    });
  }
  return openSqliteDataSource({
    file: path.join(dataDir, 'platform.sqlite'),
    entities: PLATFORM_ENTITIES,
    migrations: PLATFORM_MIGRATIONS,
  });
}

export const PLATFORM_DB = Symbol('PlatformDatabase');
