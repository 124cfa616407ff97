import type { MigrationInterface, QueryRunner } from 'typeorm';
import { PgDeadLetters1764547200000 } from './dead-letters.migration';

/**
 * The platform tables of migrations.ts, in PostgreSQL's dialect: the same tables, columns and
 * indexes, so the entities and the stores' SQL read both alike. Instants stay ISO-8601 UTC text
 * (what the entities hold, compared as strings in the stores' SQL) with the "C" collation, so they
 * sort byte by byte as in SQLite whatever the database's locale.
 */
class PgPlatformInit1763769600000 implements MigrationInterface {
  name = 'PgPlatformInit1763769600000';
  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE idempotency_record (
      id TEXT PRIMARY KEY NOT NULL, request_hash TEXT NOT NULL, status INTEGER, body TEXT, headers TEXT,
      expires_at TEXT COLLATE "C" NOT NULL)`);
    await q.query('CREATE INDEX idx_idempotency_expires ON idempotency_record (expires_at)');
    await q.query(`CREATE TABLE timer (
      id TEXT PRIMARY KEY NOT NULL, owner TEXT NOT NULL, due_at TEXT COLLATE "C" NOT NULL, payload TEXT NOT NULL,
      status TEXT NOT NULL, attempts INTEGER NOT NULL DEFAULT 0, lease_until TEXT COLLATE "C", fired_at TEXT COLLATE "C")`);
    await q.query('CREATE INDEX idx_timer_status_due ON timer (status, due_at)');
    await q.query(
      'CREATE TABLE process_checkpoint (name TEXT PRIMARY KEY NOT NULL, position TEXT NOT NULL, updated_at TEXT COLLATE "C" NOT NULL)',
    );
    await q.query(`CREATE TABLE read_model_generation (
      name TEXT NOT NULL, version INTEGER NOT NULL, generation INTEGER NOT NULL, status TEXT NOT NULL,
      file TEXT NOT NULL, created_at TEXT COLLATE "C" NOT NULL, activated_at TEXT COLLATE "C",
      PRIMARY KEY (name, version, generation))`);
    await q.query('CREATE INDEX idx_generation_status ON read_model_generation (name, version, status)');
  }
  async down(q: QueryRunner): Promise<void> {
    for (const table of ['read_model_generation', 'process_checkpoint', 'timer', 'idempotency_record']) {
      await q.query(`DROP TABLE ${table}`);
    }
  }
}

export const PLATFORM_POSTGRES_MIGRATIONS = [PgPlatformInit1763769600000, PgDeadLetters1764547200000];
