/*
 * What `verify` finds, in a file of its own: the SQLite check (verify.ts) and the PostgreSQL one
 * (postgres/verify-postgres.ts) both report in it, and neither imports the other for it.
 */

export interface TableDiff {
  table: string;
  liveRows: number;
  replayRows: number;
  /** in the replay, not in live */
  missing: number;
  /** in live, not in the replay */
  extra: number;
  changed: number;
  examples: Array<{ kind: 'missing' | 'extra' | 'changed'; key: unknown[]; live?: unknown; replay?: unknown }>;
}

export interface VerifyReport {
  name: string;
  generation: number;
  position: string;
  tables: TableDiff[];
  differences: number;
}
