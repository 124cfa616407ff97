import fs from 'node:fs';
import type { DataSource } from 'typeorm';
import { openSqliteDataSource } from '../../platform/database/sqlite-data-source';
import { ProjectionCheckpoint } from '../apply/checkpoint.entity';
import type { Projection } from '../projection';

/**
 * Opens one generation file of a read model, creating it when it does not exist. A new file gets
 * its tables from the entities (a generation is never migrated in place: a new schema means a new
 * generation) and the projection's setup, all in a file of its own that is then linked into place:
 * a generation file that exists is complete, whoever looks at it, whenever a creator died.
 */
export async function openReadModel(projection: Projection, file: string): Promise<DataSource> {
  if (!fs.existsSync(file)) await createGenerationFile(projection, file);
  return openSqliteDataSource({ file, entities: [...projection.entities, ProjectionCheckpoint] });
}

async function createGenerationFile(projection: Projection, file: string): Promise<void> {
  const draft = `${file}.draft-${process.pid}-${Date.now()}`;
  try {
    const source = await openSqliteDataSource({
      file: draft,
      entities: [...projection.entities, ProjectionCheckpoint],
      synchronize: true,
    });
    try {
      for (const sql of projection.setup ?? []) await source.query(sql);
      // fold the WAL into the file: only the file itself is linked into place
      await source.query('PRAGMA wal_checkpoint(TRUNCATE)');
    } finally {
      await source.destroy();
    }
    try {
      fs.linkSync(draft, file);
    } catch (error) {
      // another process created it meanwhile: theirs is as good, and may already be in use
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
  } finally {
    for (const suffix of ['', '-wal', '-shm']) fs.rmSync(draft + suffix, { force: true });
  }
}

/** The connection queries use: read-only, so it only ever sees committed batches. The file must exist. */
export function openReadModelReader(projection: Projection, file: string): Promise<DataSource> {
  return openSqliteDataSource({ file, entities: [...projection.entities, ProjectionCheckpoint], readonly: true });
}
