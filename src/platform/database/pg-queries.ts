import type { DataSource, QueryRunner } from 'typeorm';

/** Plain SQL on PostgreSQL with `$n` parameters, answering rows or the number of rows changed. */
export interface PgQueries {
  rows<T>(sql: string, parameters?: unknown[]): Promise<T[]>;
  /** rows inserted, updated or deleted */
  affected(sql: string, parameters?: unknown[]): Promise<number>;
}

function on(runner: QueryRunner): PgQueries {
  return {
    rows: async <T>(sql: string, parameters: unknown[] = []) =>
      (await runner.query(sql, parameters, true)).records as T[],
    affected: async (sql: string, parameters: unknown[] = []) =>
      (await runner.query(sql, parameters, true)).affected ?? 0,
  };
}

/** One statement at a time, each its own transaction, on any connection of the pool. */
export function pgQueries(source: DataSource): PgQueries {
  return {
    rows: async <T>(sql: string, parameters: unknown[] = []) =>
      withRunner(source, (runner) => on(runner).rows<T>(sql, parameters)),
    affected: async (sql: string, parameters: unknown[] = []) =>
      withRunner(source, (runner) => on(runner).affected(sql, parameters)),
  };
}

/**
 * A READ COMMITTED transaction on one connection of the pool: the PostgreSQL counterpart of
 * syncTransaction. Unlike SQLite's single shared connection, concurrent callers get their own
 * connections, so row locks (FOR UPDATE, SKIP LOCKED) are what keeps them apart.
 */
export async function pgTransaction<T>(source: DataSource, work: (q: PgQueries) => Promise<T>): Promise<T> {
  return withRunner(source, async (runner) => {
    await runner.startTransaction();
    try {
      const result = await work(on(runner));
      await runner.commitTransaction();
      return result;
    } catch (error) {
      if (runner.isTransactionActive) await runner.rollbackTransaction();
      throw error;
    }
  });
}

async function withRunner<T>(source: DataSource, work: (runner: QueryRunner) => Promise<T>): Promise<T> {
  const runner = source.createQueryRunner();
  try {
    return await work(runner);
  } finally {
    await runner.release();
  }
}
