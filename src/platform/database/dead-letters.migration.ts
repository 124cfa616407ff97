import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Events a projection or process manager could not handle, set aside so it goes on with the rest
 * (src/subscriptions/dead-letters.ts). One row per (kind, name, position): meeting the same event
 * again (a rebuild, a restart before the skip committed) counts another attempt on that row.
 */
export class DeadLetters1764547200000 implements MigrationInterface {
  name = 'DeadLetters1764547200000';
  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE dead_letter (
      kind TEXT NOT NULL, name TEXT NOT NULL, position TEXT NOT NULL, version INTEGER, generation INTEGER,
      stream_id TEXT NOT NULL, event_id TEXT NOT NULL, event_type TEXT NOT NULL, error TEXT NOT NULL,
      first_failed_at TEXT NOT NULL, last_failed_at TEXT NOT NULL, attempts INTEGER NOT NULL,
      status TEXT NOT NULL, retried_at TEXT, resolved_at TEXT,
      PRIMARY KEY (kind, name, position))`);
    await q.query('CREATE INDEX idx_dead_letter_status ON dead_letter (status, kind, name)');
  }
  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE dead_letter');
  }
}

/** The same table on PostgreSQL: instants as "C"-collated text, as the other platform tables. */
export class PgDeadLetters1764547200000 implements MigrationInterface {
  name = 'PgDeadLetters1764547200000';
  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE dead_letter (
      kind TEXT NOT NULL, name TEXT NOT NULL, position TEXT COLLATE "C" NOT NULL, version INTEGER, generation INTEGER,
      stream_id TEXT NOT NULL, event_id TEXT NOT NULL, event_type TEXT NOT NULL, error TEXT NOT NULL,
      first_failed_at TEXT COLLATE "C" NOT NULL, last_failed_at TEXT COLLATE "C" NOT NULL, attempts INTEGER NOT NULL,
      status TEXT NOT NULL, retried_at TEXT COLLATE "C", resolved_at TEXT COLLATE "C",
      PRIMARY KEY (kind, name, position))`);
    await q.query('CREATE INDEX idx_dead_letter_status ON dead_letter (status, kind, name)');
  }
  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE dead_letter');
  }
}
