import type Database from 'better-sqlite3';

/** Distinct limits kept prepared; past this, the one prepared longest ago is dropped. */
const KEPT_LIMITS = 32;

/**
 * One query with a row limit, prepared once per limit with the limit written into the SQL.
 *
 * SQLite 3.53 (better-sqlite3 12's) plans a bound `LIMIT ?` as the constant it was bound to, so it
 * marks the statement expired at every bind of that parameter, and the next step parses and plans
 * the statement again (sqlite3Reprepare): a cached stream read paid a parse and a plan at every
 * call. Only LIMIT is folded: the other parameters stay bound.
 *
 * `sql` is the query without a LIMIT clause; ` LIMIT <n>` is appended. A limit below 0 (the event
 * store's -1) means none: the statement without a clause.
 */
export class LimitedStatements<Params extends unknown[], Row> {
  private readonly byLimit = new Map<number, Database.Statement<Params, Row>>();
  private unlimited: Database.Statement<Params, Row> | null = null;

  constructor(
    private readonly db: Database.Database,
    private readonly sql: string,
  ) {}

  all(limit: number, ...params: Params): Row[] {
    return this.statement(limit).all(...params);
  }

  get(limit: number, ...params: Params): Row | undefined {
    return this.statement(limit).get(...params);
  }

  private statement(limit: number): Database.Statement<Params, Row> {
    if (!Number.isSafeInteger(limit)) throw new RangeError(`a row limit must be an integer, not ${limit}`);
    if (limit < 0) return (this.unlimited ??= this.db.prepare<Params, Row>(this.sql));
    let statement = this.byLimit.get(limit);
    if (statement === undefined) {
      if (this.byLimit.size >= KEPT_LIMITS) this.byLimit.delete(this.byLimit.keys().next().value!);
      statement = this.db.prepare<Params, Row>(`${this.sql} LIMIT ${limit}`);
      this.byLimit.set(limit, statement);
    }
    return statement;
  }
}
