import type { DataSource } from 'typeorm';
import { rawConnection } from '../platform/database/raw-connection';

interface RawStatement<Row> {
  get(...params: unknown[]): Row | undefined;
}

/**
 * A prepared statement on a read model's better-sqlite3 connection, for the few lookups on every
 * request's path (key digests, agent owners). They run synchronously: no promise, no TypeORM
 * query building, and no interleaving with cache invalidations. Re-prepared when the serving
 * generation changes.
 */
export class SyncQuery<Row> {
  private prepared: { source: DataSource; statement: RawStatement<Row> } | null = null;

  constructor(
    private readonly source: () => DataSource,
    private readonly sql: string,
  ) {}

  /** The statement on the current source, and whether the source changed since the last call. */
  get(...params: unknown[]): { row: Row | undefined; switched: boolean } {
    const source = this.source();
    let switched = false;
    if (this.prepared?.source !== source) {
      this.prepared = { source, statement: rawConnection(source).prepare(this.sql) as unknown as RawStatement<Row> };
      switched = true;
    }
    return { row: this.prepared.statement.get(...params), switched };
  }
}
