import fs from 'node:fs';
import type { DataSource } from 'typeorm';
import { openSqliteDataSource } from '../platform/database/sqlite-data-source';
import { ProjectionCheckpoint } from './checkpoint.entity';
import type { Projection } from './projection';

/**
 * Opens one generation file of a read model. A new file gets its tables from the entities: a
 * generation is never migrated in place, a new schema means a new generation.
 */
export async function openReadModel(projection: Projection, file: string): Promise<DataSource> {
  const fresh = !fs.existsSync(file);
  const source = await openSqliteDataSource({ file, entities: [...projection.entities, ProjectionCheckpoint], synchronize: fresh });
  if (fresh) for (const sql of projection.setup ?? []) await source.query(sql);
  return source;
}

/** The connection queries use: read-only, so it only ever sees committed batches. */
export function openReadModelReader(projection: Projection, file: string): Promise<DataSource> {
  return openSqliteDataSource({ file, entities: [...projection.entities, ProjectionCheckpoint], readonly: true });
}
