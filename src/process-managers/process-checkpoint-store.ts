import type { Statement } from 'better-sqlite3';
import type { DataSource } from 'typeorm';
import { forDialect } from '../platform/database/dialect';
import { rawConnection } from '../platform/database/raw-connection';
import { portableSql } from '../platform/database/portable-sql';

const UPSERT = `INSERT INTO process_checkpoint (name, position, updated_at) VALUES (?, ?, ?)
  ON CONFLICT (name) DO UPDATE SET position = excluded.position, updated_at = excluded.updated_at`;

export type SaveProcessCheckpoint = (name: string, position: string, updatedAt: string) => Promise<void>;

/**
 * Stores a process manager's position after each batch it acted on: one statement, prepared once.
 * Under load every manager saves after nearly every batch, and TypeORM's upsert built the same SQL
 * each time, a share of the event loop that showed in profiles under load.
 */
export function processCheckpointSaver(platform: DataSource): SaveProcessCheckpoint {
  return forDialect<SaveProcessCheckpoint>(platform, {
    sqlite: (source) => {
      // prepared at the first save: the table exists by then (the platform migrations ran)
      let statement: Statement | null = null;
      return async (name, position, updatedAt) => {
        statement ??= rawConnection(source).prepare(UPSERT);
        statement.run(name, position, updatedAt);
      };
    },
    postgres: (source) => {
      const sql = portableSql(source, UPSERT);
      return async (name, position, updatedAt) => {
        await source.query(sql, [name, position, updatedAt]);
      };
    },
  });
}
