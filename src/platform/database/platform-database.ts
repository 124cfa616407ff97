import path from 'node:path';
import type { DataSource } from 'typeorm';
import { PLATFORM_ENTITIES } from './platform.entities';
import { PLATFORM_MIGRATIONS } from './migrations';
import { openPostgresDataSource } from './postgres-data-source';
import { PLATFORM_POSTGRES_MIGRATIONS } from './postgres-migrations';
import type { PlatformTables } from './platform-tables';
import { openSqliteDataSource } from './sqlite-data-source';

/**
 * Idempotency records, timers, process checkpoints and the read-model registry, plus the tables
 * contexts keep here (`contextTables`: alert evaluations, the webhook outbox; the app's list is
 * src/app.database.ts): `DATA_DIR/platform.sqlite`, or the PostgreSQL database at `databaseUrl`
 * (READ_MODEL_DB=postgres), which every process of a scaled set shares. Both by migrations.
 */
export function openPlatformDatabase(
  dataDir: string,
  databaseUrl: string | null,
  contextTables: readonly PlatformTables[],
): Promise<DataSource> {
  const entities = [...PLATFORM_ENTITIES, ...contextTables.flatMap((tables) => tables.entities)];
  if (databaseUrl !== null) {
    return openPostgresDataSource({
      url: databaseUrl,
      entities,
      migrations: [...PLATFORM_POSTGRES_MIGRATIONS, ...contextTables.flatMap((tables) => tables.postgresMigrations)],
    });
  }
  return openSqliteDataSource({
    file: path.join(dataDir, 'platform.sqlite'),
    entities,
    migrations: [...PLATFORM_MIGRATIONS, ...contextTables.flatMap((tables) => tables.sqliteMigrations)],
  });
}

export const PLATFORM_DB = Symbol('PlatformDatabase');
