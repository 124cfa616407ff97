import path from 'node:path';
import type { DataSource } from 'typeorm';
import { PLATFORM_ENTITIES } from './platform.entities';
import { PLATFORM_MIGRATIONS } from './migrations';
import { openSqliteDataSource } from './sqlite-data-source';

/** Idempotency records, timers, process checkpoints and the read-model registry: `DATA_DIR/platform.sqlite`. */
export function openPlatformDatabase(dataDir: string): Promise<DataSource> {
  return openSqliteDataSource({
    file: path.join(dataDir, 'platform.sqlite'),
    entities: PLATFORM_ENTITIES,
    migrations: PLATFORM_MIGRATIONS,
  });
}

export const PLATFORM_DB = Symbol('PlatformDatabase');
