import type Database from 'better-sqlite3';
import type { DataSource, EntityMetadata, EntityTarget, ObjectLiteral } from 'typeorm';
import { rawConnection } from '../platform/database/raw-connection';
import { BatchedRows } from './batch-memo';
import { definedColumns } from './rows';

type Value = string | number | bigint | Buffer | null;

interface Table {
  name: string;
  /** property name → column name, for the entity's columns */
  columns: Map<string, string>;
  /** column name → property name */
  properties: Map<string, string>;
  primary: string[];
  /** insert statements by row shape (the properties present, in order) */
  inserts: Map<string, Database.Statement>;
}

/**
 * The write path of projection handlers: TypeORM's entity metadata (table and column names) with
 * better-sqlite3 prepared statements, cached per statement shape. TypeORM's own insert builds new
 * SQL text for every row (it inlines numbers), so each row is a statement to compile; here a row
 * costs one bind and one step, like a hand-written insert. Statements run on the same connection
 * as the batch transaction applyBatch opened, so they commit or roll back with it.
 */
export class RowWriter extends BatchedRows {
  private readonly db: Database.Database;
  private readonly tables = new Map<unknown, Table>();
  private readonly statements = new Map<string, Database.Statement>();

  constructor(private readonly source: DataSource) {
    super();
    this.db = rawConnection(source);
  }

  insert<T extends ObjectLiteral>(entity: EntityTarget<T>, row: Partial<T>): void {
    const table = this.table(entity);
    const keys = definedColumns(table, row);
    // the hot path of rebuilds: the statement is found by the row's shape, not by building SQL text
    const shape = keys.join(',');
    let statement = table.inserts.get(shape);
    if (!statement) {
      const cols = keys.map((k) => table.columns.get(k)!);
      statement = this.prepare(
        `INSERT INTO "${table.name}" (${quote(cols)}) VALUES (${cols.map(() => '?').join(', ')})`,
      );
      table.inserts.set(shape, statement);
    }
    const values: Value[] = new Array(keys.length);
    for (let i = 0; i < keys.length; i++) values[i] = toValue(row[keys[i]]);
    statement.run(values);
  }

  /** Insert, or update every given column of the row with the same primary key. */
  upsert<T extends ObjectLiteral>(entity: EntityTarget<T>, row: Partial<T>): void {
    const table = this.table(entity);
    const keys = definedColumns(table, row);
    const cols = keys.map((k) => table.columns.get(k)!);
    const updates = cols.filter((c) => !table.primary.includes(c));
    const action = updates.length
      ? `DO UPDATE SET ${updates.map((c) => `"${c}" = excluded."${c}"`).join(', ')}`
      : 'DO NOTHING';
    this.run(
      `INSERT INTO "${table.name}" (${quote(cols)}) VALUES (${cols.map(() => '?').join(', ')}) ON CONFLICT (${quote(table.primary)}) ${action}`,
      keys.map((k) => toValue(row[k])),
    );
  }

  update<T extends ObjectLiteral>(entity: EntityTarget<T>, where: Partial<T>, set: Partial<T>): number {
    const table = this.table(entity);
    const setKeys = definedColumns(table, set);
    const whereKeys = definedColumns(table, where);
    const sql = `UPDATE "${table.name}" SET ${setKeys.map((k) => `"${table.columns.get(k)}" = ?`).join(', ')} WHERE ${conditions(table, whereKeys)}`;
    return this.run(sql, [...setKeys.map((k) => toValue(set[k])), ...whereKeys.map((k) => toValue(where[k]))]);
  }

  /** Adds `by` to a numeric column. */
  increment<T extends ObjectLiteral>(
    entity: EntityTarget<T>,
    where: Partial<T>,
    property: keyof T & string,
    by: number,
  ): number {
    const table = this.table(entity);
    const whereKeys = definedColumns(table, where);
    const column = table.columns.get(property)!;
    return this.run(`UPDATE "${table.name}" SET "${column}" = "${column}" + ? WHERE ${conditions(table, whereKeys)}`, [
      by,
      ...whereKeys.map((k) => toValue(where[k])),
    ]);
  }

  delete<T extends ObjectLiteral>(entity: EntityTarget<T>, where: Partial<T>): number {
    const table = this.table(entity);
    const whereKeys = definedColumns(table, where);
    return this.run(
      `DELETE FROM "${table.name}" WHERE ${conditions(table, whereKeys)}`,
      whereKeys.map((k) => toValue(where[k])),
    );
  }

  /** applyBatch: a batch begins (or failed and is rolled back). */
  resetBatch(): void {
    this.batch.clear();
  }

  /** applyBatch: the batch's handlers are done; write what they deferred. */
  endBatch(): void {
    for (const { entity, row } of this.batch.drain()) this.upsert(entity, row);
  }

  /** One row by equality on the given properties, as the entity's properties (booleans included). */
  findOne<T extends ObjectLiteral>(entity: EntityTarget<T>, where: Partial<T>): T | undefined {
    const table = this.table(entity);
    const whereKeys = definedColumns(table, where);
    const raw = this.prepare(`SELECT * FROM "${table.name}" WHERE ${conditions(table, whereKeys)} LIMIT 1`).get(
      ...whereKeys.map((k) => toValue(where[k])),
    ) as Record<string, unknown> | undefined;
    return raw ? this.toEntity<T>(entity, raw) : undefined;
  }

  private toEntity<T>(entity: EntityTarget<T & ObjectLiteral>, raw: Record<string, unknown>): T {
    const metadata = this.source.getMetadata(entity);
    const out: Record<string, unknown> = {};
    for (const column of metadata.columns) {
      const value = raw[column.databaseName];
      out[column.propertyName] =
        column.type === 'boolean' && value !== null && value !== undefined ? value === 1 || value === true : value;
    }
    return out as T;
  }

  private run(sql: string, values: Value[]): number {
    return this.prepare(sql).run(...values).changes;
  }

  private prepare(sql: string): Database.Statement {
    let statement = this.statements.get(sql);
    if (!statement) {
      statement = this.db.prepare(sql);
      this.statements.set(sql, statement);
    }
    return statement;
  }

  private table(entity: EntityTarget<ObjectLiteral>): Table {
    let table = this.tables.get(entity);
    if (!table) {
      const metadata: EntityMetadata = this.source.getMetadata(entity);
      table = {
        name: metadata.tableName,
        columns: new Map(metadata.columns.map((c) => [c.propertyName, c.databaseName])),
        properties: new Map(metadata.columns.map((c) => [c.databaseName, c.propertyName])),
        primary: metadata.primaryColumns.map((c) => c.databaseName),
        inserts: new Map(),
      };
      this.tables.set(entity, table);
    }
    return table;
  }
}

function quote(columns: string[]): string {
  return columns.map((c) => `"${c}"`).join(', ');
}

function conditions(table: Table, keys: string[]): string {
  if (keys.length === 0) throw new Error(`refusing an unconditional write to ${table.name}`);
  return keys.map((k) => `"${table.columns.get(k)}" = ?`).join(' AND ');
}

function toValue(value: unknown): Value {
  if (value === null || value === undefined) return null;
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (value instanceof Date) return value.toISOString();
  if (typeof value === 'object' && !Buffer.isBuffer(value)) return JSON.stringify(value);
  return value as Value;
}
