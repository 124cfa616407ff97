import type { MigrationInterface, QueryRunner } from 'typeorm';

/** The platform table of rules' latest evaluations (alert-evaluation.entity.ts). */
export class AlertEvaluations1763856000000 implements MigrationInterface {
  name = 'AlertEvaluations1763856000000';
  async up(q: QueryRunner): Promise<void> {
    await q.query(
      'CREATE TABLE alert_evaluation (rule_id TEXT PRIMARY KEY NOT NULL, evaluated_at TEXT NOT NULL, current_value REAL)',
    );
  }
  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE alert_evaluation');
  }
}

/** The same table on PostgreSQL (postgres-migrations.ts): the value a double, as SQLite's REAL is. */
export class PgAlertEvaluations1763856000000 implements MigrationInterface {
  name = 'PgAlertEvaluations1763856000000';
  async up(q: QueryRunner): Promise<void> {
    await q.query(
      'CREATE TABLE alert_evaluation (rule_id TEXT PRIMARY KEY NOT NULL, evaluated_at TEXT COLLATE "C" NOT NULL, current_value DOUBLE PRECISION)',
    );
  }
  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE alert_evaluation');
  }
}
