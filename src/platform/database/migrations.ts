import type { MigrationInterface, QueryRunner } from 'typeorm';
import { DeadLetters1764547200000 } from './dead-letters.migration';

/** Platform tables. Read-model tables need no migrations: a schema change is a new generation file. */
class PlatformInit1763769600000 implements MigrationInterface {
  name = 'PlatformInit1763769600000';
  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE idempotency_record (
      id TEXT PRIMARY KEY NOT NULL, request_hash TEXT NOT NULL, status INTEGER, body TEXT, headers TEXT,
      expires_at TEXT NOT NULL)`);
    await q.query('CREATE INDEX idx_idempotency_expires ON idempotency_record (expires_at)');
    await q.query(`CREATE TABLE timer (
      id TEXT PRIMARY KEY NOT NULL, owner TEXT NOT NULL, due_at TEXT NOT NULL, payload TEXT NOT NULL,
      status TEXT NOT NULL, attempts INTEGER NOT NULL DEFAULT 0, lease_until TEXT, fired_at TEXT)`);
    await q.query('CREATE INDEX idx_timer_status_due ON timer (status, due_at)');
    await q.query(
      'CREATE TABLE process_checkpoint (name TEXT PRIMARY KEY NOT NULL, position TEXT NOT NULL, updated_at TEXT NOT NULL)',
    );
    await q.query(`CREATE TABLE read_model_generation (
      name TEXT NOT NULL, version INTEGER NOT NULL, generation INTEGER NOT NULL, status TEXT NOT NULL,
      file TEXT NOT NULL, created_at TEXT NOT NULL, activated_at TEXT,
      PRIMARY KEY (name, version, generation))`);
    await q.query('CREATE INDEX idx_generation_status ON read_model_generation (name, version, status)');
  }
  async down(q: QueryRunner): Promise<void> {
    for (const table of ['read_model_generation', 'process_checkpoint', 'timer', 'idempotency_record']) {
      await q.query(`DROP TABLE ${table}`);
    }
  }
}

/** The platform's own tables; contexts add theirs through PlatformTables (TypeORM runs all in timestamp order). */
export const PLATFORM_MIGRATIONS = [PlatformInit1763769600000, DeadLetters1764547200000];
