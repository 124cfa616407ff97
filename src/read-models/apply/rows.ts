import type { EntityTarget, ObjectLiteral } from 'typeorm';
import type { Awaitable } from '../../platform/awaitable';

export type { Awaitable };

/**
 * What projection handlers write through: rows by entity and property names, inside the batch's
 * transaction. Handlers await every call: the SQLite writer answers at once (prepared statements
 * on a synchronous driver, the fast path of rebuilds), a PostgreSQL writer answers after a round
 * trip; the handler code is the same for both.
 */
export interface Rows {
  insert<T extends ObjectLiteral>(entity: EntityTarget<T>, row: Partial<T>): Awaitable<void>;
  /** Insert, or update every given column of the row with the same primary key. */
  upsert<T extends ObjectLiteral>(entity: EntityTarget<T>, row: Partial<T>): Awaitable<void>;
  /** Rows changed. */
  update<T extends ObjectLiteral>(entity: EntityTarget<T>, where: Partial<T>, set: Partial<T>): Awaitable<number>;
  /** Adds `by` to a numeric column; rows changed. */
  increment<T extends ObjectLiteral>(
    entity: EntityTarget<T>,
    where: Partial<T>,
    property: keyof T & string,
    by: number,
  ): Awaitable<number>;
  /** Rows deleted. */
  delete<T extends ObjectLiteral>(entity: EntityTarget<T>, where: Partial<T>): Awaitable<number>;
  /** One row by equality on the given properties, as the entity's properties (booleans included). */
  findOne<T extends ObjectLiteral>(entity: EntityTarget<T>, where: Partial<T>): Awaitable<T | undefined>;
  /**
   * A value remembered for the rest of the batch (e.g. an aggregate a handler folds event by
   * event), so several events of one batch load it once. Cleared when a batch begins and when one
   * fails: it never outlives the transaction whose writes it mirrors.
   */
  remembered<V>(key: string, load: () => Awaitable<V>): Awaitable<V>;
  remember(key: string, value: unknown): void;
  /**
   * An upsert written when the batch ends (still inside its transaction, before the checkpoint),
   * once per key however many events of the batch changed the row: the last `build` wins.
   */
  upsertAtBatchEnd<T extends ObjectLiteral>(entity: EntityTarget<T>, key: string, build: () => Partial<T>): void;
}

/**
 * The properties of `row` that carry a value, checked against the table's columns: what a row
 * writer binds (undefined means "leave it out", null is a value).
 */
export function definedColumns(table: { name: string; columns: Map<string, string> }, row: ObjectLiteral): string[] {
  const keys: string[] = [];
  for (const k in row) {
    if (row[k] === undefined) continue;
    if (!table.columns.has(k)) throw new Error(`${table.name} has no column for property ${k}`);
    keys.push(k);
  }
  return keys;
}
