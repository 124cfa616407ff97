import type { DataSource } from 'typeorm';
import { andThen, type Awaitable } from '../../src/platform/awaitable';
import { ReadQuery } from '../../src/read-models/read-query';
import type { ReadModelSources } from '../query-kit';
import { ALERT_SAMPLES_READ_MODEL } from './name';

export { ALERT_SAMPLES_READ_MODEL } from './name';

/** Whose samples a window reads: an account's, or one project's (agent's). */
export interface SampleScope {
  column: 'account_id' | 'project_id';
  id: string;
}

/**
 * The alert-samples read model's queries: one indexed range of a scope's samples over
 * (fromMs, toMs]: a sample recorded at the evaluation instant counts (contract §12). Prepared (once per scope column and serving generation): a round asks them of
 * every rule, at once on SQLite (no await per rule), awaited on PostgreSQL.
 */
export interface AlertSamplesQueries {
  /** The sum of one kind's values (0 when there are none). */
  sum(scope: SampleScope, kind: string, fromMs: number, toMs: number): Awaitable<number>;
  /** The turn latencies, smallest first. */
  latencies(scope: SampleScope, fromMs: number, toMs: number): Awaitable<number[]>;
  /** How many turns (latency samples) there were. */
  turns(scope: SampleScope, fromMs: number, toMs: number): Awaitable<number>;
}

class AlertSamplesReadModel implements AlertSamplesQueries {
  /** The queries by SQL text (the scope column differs); each prepared once per serving generation. */
  private readonly queries = new Map<string, ReadQuery<Record<string, number>>>();

  constructor(private readonly source: () => DataSource) {}

  // coalesce(sum(...)) rather than SQLite's total(), and count(*) cast to INTEGER (PostgreSQL counts in bigint, which pg returns as a string)
  sum(scope: SampleScope, kind: string, fromMs: number, toMs: number) {
    const sql = `SELECT coalesce(sum(value), 0) AS v FROM sample WHERE ${scope.column} = ? AND kind = ? AND at_ms > ? AND at_ms <= ?`;
    return andThen(this.query(sql).get(scope.id, kind, fromMs, toMs), ({ row }) => row!.v);
  }

  latencies(scope: SampleScope, fromMs: number, toMs: number) {
    const sql = `SELECT value FROM sample WHERE ${scope.column} = ? AND kind = 'latency' AND at_ms > ? AND at_ms <= ? ORDER BY value`;
    return andThen(this.query(sql).all(scope.id, fromMs, toMs), ({ rows }) => rows.map((r) => r.value));
  }

  turns(scope: SampleScope, fromMs: number, toMs: number) {
    const sql = `SELECT CAST(count(*) AS INTEGER) AS n FROM sample WHERE ${scope.column} = ? AND kind = 'latency' AND at_ms > ? AND at_ms <= ?`;
    return andThen(this.query(sql).get(scope.id, fromMs, toMs), ({ row }) => row!.n);
  }

  private query(sql: string): ReadQuery<Record<string, number>> {
    let query = this.queries.get(sql);
    if (!query) this.queries.set(sql, (query = new ReadQuery(this.source, sql)));
    return query;
  }
}

/** The alert-samples read model's queries on whichever generation serves now. */
export function alertSamplesQueries(readModels: ReadModelSources): AlertSamplesQueries {
  return new AlertSamplesReadModel(() => readModels.source(ALERT_SAMPLES_READ_MODEL));
}
