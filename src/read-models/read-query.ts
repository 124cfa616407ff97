import type Database from 'better-sqlite3';
import type { DataSource } from 'typeorm';
import { andThen, type Awaitable } from '../platform/awaitable';
import { dialectOf } from '../platform/database/dialect';
import { rawConnection } from '../platform/database/raw-connection';
import { portableSql } from '../platform/database/portable-sql';
import { holdReadSnapshot } from './apply/read-snapshot';

/** One statement on one generation's connection. */
interface Statement<Row> {
  get(params: unknown[]): Awaitable<Row | undefined>;
  all(params: unknown[]): Awaitable<Row[]>;
}

/**
 * A prepared better-sqlite3 statement: answers synchronously, with no promise, no TypeORM query
 * building, and no interleaving with cache invalidations (the request path's lookups). The
 * lookups of one event-loop turn share a read transaction (read-snapshot.ts).
 */
class SqliteStatement<Row> implements Statement<Row> {
  private readonly db: Database.Database;
  private readonly statement: Database.Statement;

  constructor(source: DataSource, sql: string) {
    this.db = rawConnection(source);
    this.statement = this.db.prepare(sql);
  }

  get(params: unknown[]): Row | undefined {
    holdReadSnapshot(this.db);
    return this.statement.get(...params) as Row | undefined;
  }

  all(params: unknown[]): Row[] {
    holdReadSnapshot(this.db);
    return this.statement.all(...params) as Row[];
  }
}

/** The same statement on a PostgreSQL generation's pool (whose search_path is the generation's schema). */
class PostgresStatement<Row> implements Statement<Row> {
  private readonly sql: string;

  constructor(
    private readonly source: DataSource,
    sql: string,
  ) {
    this.sql = portableSql(source, sql);
  }

  async get(params: unknown[]): Promise<Row | undefined> {
    return (await this.all(params))[0];
  }

  all(params: unknown[]): Promise<Row[]> {
    return this.source.query(this.sql, params) as Promise<Row[]>;
  }
}

function prepare<Row>(source: DataSource, sql: string): Statement<Row> {
  return dialectOf(source) === 'sqlite'
    ? new SqliteStatement<Row>(source, sql)
    : new PostgresStatement<Row>(source, sql);
}

/**
 * A read-model query written once (`?` placeholders, SQL both databases read alike), prepared on
 * whichever generation serves now and again when a rebuild switches it. On SQLite it answers at
 * once; on PostgreSQL the answer is a promise. Callers chain with `andThen` (or await) and learn
 * whether the serving generation changed since their last call (`switched`), to drop what they
 * cached from the old one.
 */
export class ReadQuery<Row> {
  private prepared: { source: DataSource; statement: Statement<Row> } | null = null;

  constructor(
    private readonly source: () => DataSource,
    private readonly sql: string,
  ) {}

  get(...params: unknown[]): Awaitable<{ row: Row | undefined; switched: boolean }> {
    const { statement, switched } = this.statement();
    return andThen(statement.get(params), (row) => ({ row, switched }));
  }

  all(...params: unknown[]): Awaitable<{ rows: Row[]; switched: boolean }> {
    const { statement, switched } = this.statement();
    return andThen(statement.all(params), (rows) => ({ rows, switched }));
  }

  private statement(): { statement: Statement<Row>; switched: boolean } {
    const source = this.source();
    if (this.prepared?.source === source) return { statement: this.prepared.statement, switched: false };
    this.prepared = { source, statement: prepare<Row>(source, this.sql) };
    return { statement: this.prepared.statement, switched: true };
  }
}

/** A boolean column as a query returns it: 0/1 from SQLite, a real boolean from PostgreSQL. */
export function sqlBoolean(value: unknown): boolean {
  return value === true || value === 1;
}
