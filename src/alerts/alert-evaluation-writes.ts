import type { DataSource } from 'typeorm';
import { forDialect } from '../platform/database/dialect';
import { pgQueries, type PgQueries } from '../platform/database/pg-queries';
import { syncTransaction } from '../platform/database/raw-connection';

/** Records a round's latest value of every rule it evaluated (alert_evaluation), all or none. */
export interface AlertEvaluationWrites {
  save(evaluatedAt: string, values: ReadonlyArray<{ ruleId: string; value: number | null }>): Promise<void>;
}

/** One synchronous transaction on the shared connection, one prepared upsert per rule. */
class SqliteAlertEvaluationWrites implements AlertEvaluationWrites {
  constructor(private readonly platform: DataSource) {}

  async save(evaluatedAt: string, values: ReadonlyArray<{ ruleId: string; value: number | null }>): Promise<void> {
    syncTransaction(this.platform, (db) => {
      const upsert = db.prepare(
        'INSERT INTO alert_evaluation (rule_id, evaluated_at, current_value) VALUES (?, ?, ?) ON CONFLICT (rule_id) DO UPDATE SET evaluated_at = excluded.evaluated_at, current_value = excluded.current_value',
      );
      for (const { ruleId, value } of values) upsert.run(ruleId, evaluatedAt, value);
    });
  }
}

/** One statement for the whole round (the rules as arrays), so a round costs one round trip however many rules. */
class PostgresAlertEvaluationWrites implements AlertEvaluationWrites {
  private readonly q: PgQueries;

  constructor(platform: DataSource) {
    this.q = pgQueries(platform);
  }

  async save(evaluatedAt: string, values: ReadonlyArray<{ ruleId: string; value: number | null }>): Promise<void> {
    if (values.length === 0) return;
    await this.q.affected(
      `INSERT INTO alert_evaluation (rule_id, evaluated_at, current_value)
       SELECT r.rule_id, $1, r.value FROM unnest($2::text[], $3::float8[]) AS r(rule_id, value)
       ON CONFLICT (rule_id) DO UPDATE SET evaluated_at = EXCLUDED.evaluated_at, current_value = EXCLUDED.current_value`,
      [evaluatedAt, values.map((v) => v.ruleId), values.map((v) => v.value)],
    );
  }
}

export const alertEvaluationWrites = (platform: DataSource): AlertEvaluationWrites =>
  forDialect<AlertEvaluationWrites>(platform, {
    sqlite: (s) => new SqliteAlertEvaluationWrites(s),
    postgres: (s) => new PostgresAlertEvaluationWrites(s),
  });
