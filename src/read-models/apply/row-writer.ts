import type Database from 'better-sqlite3';
import type { DataSource, EntityMetadata, EntityTarget, ObjectLiteral } from 'typeorm';
import { rawConnection } from '../../platform/database/raw-connection';
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
  /** the other operations' statements, by operation and row shape (RowWriter.shaped) */
  shaped: Map<string, Database.Statement>;
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
    const statement = this.shaped(table, 'upsert', keys, () => {
      const cols = keys.map((k) => table.columns.get(k)!);
      const updates = cols.filter((c) => !table.primary.includes(c));
      const action = updates.length
        ? `DO UPDATE SET ${updates.map((c) => `"${c}" = excluded."${c}"`).join(', ')}`
        : 'DO NOTHING';
      return `INSERT INTO "${table.name}" (${quote(cols)}) VALUES (${cols.map(() => '?').join(', ')}) ON CONFLICT (${quote(table.primary)}) ${action}`;
    });
    statement.run(valuesOf(row, keys));
  }

  update<T extends ObjectLiteral>(entity: EntityTarget<T>, where: Partial<T>, set: Partial<T>): number {
    const table = this.table(entity);
    const setKeys = definedColumns(table, set);
    const whereKeys = definedColumns(table, where);
    const statement = this.shaped(
      table,
      `update ${setKeys.join(',')}`,
      whereKeys,
      () =>
        `UPDATE "${table.name}" SET ${setKeys.map((k) => `"${table.columns.get(k)}" = ?`).join(', ')} WHERE ${conditions(table, whereKeys)}`,
    );
    return statement.run([...valuesOf(set, setKeys), ...valuesOf(where, whereKeys)]).changes;
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
    const statement = this.shaped(table, `increment ${property}`, whereKeys, () => {
      const column = table.columns.get(property)!;
      return `UPDATE "${table.name}" SET "${column}" = "${column}" + ? WHERE ${conditions(table, whereKeys)}`;
    });
    const values = valuesOf(where, whereKeys, 1);
    values[0] = by;
    return statement.run(values).changes;
  }

  delete<T extends ObjectLiteral>(entity: EntityTarget<T>, where: Partial<T>): number {
    const table = this.table(entity);
    const whereKeys = definedColumns(table, where);
    const statement = this.shaped(
      table,
      'delete',
      whereKeys,
      () => `DELETE FROM "${table.name}" WHERE ${conditions(table, whereKeys)}`,
    );
    return statement.run(valuesOf(where, whereKeys)).changes;
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
    const statement = this.shaped(
      table,
      'find',
      whereKeys,
      () => `SELECT * FROM "${table.name}" WHERE ${conditions(table, whereKeys)} LIMIT 1`,
    );
    const raw = statement.get(valuesOf(where, whereKeys)) as Record<string, unknown> | undefined;
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

  /**
   * The statement of one operation on one row shape, found by the shape: building each call's SQL
   * text and looking it up by that text cost more than the statement's run in the small read models.
   */
  private shaped(table: Table, operation: string, keys: string[], sql: () => string): Database.Statement {
    const shape = `${operation} ${keys.join(',')}`;
    let statement = table.shaped.get(shape);
    if (!statement) {
      statement = this.prepare(sql());
      table.shaped.set(shape, statement);
    }
    return statement;
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
        shaped: new Map(),
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

/** The values of `keys`, after `offset` places left for the caller. */
function valuesOf(row: ObjectLiteral, keys: string[], offset = 0): Value[] {
  const values: Value[] = new Array(offset + keys.length);
  for (let i = 0; i < keys.length; i++) values[offset + i] = toValue(row[keys[i]]);
  return values;
}

function toValue(value: unknown): Value {
  if (value === null || value === undefined) return null;
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (value instanceof Date) return value.toISOString();
  if (typeof value === 'object' && !Buffer.isBuffer(value)) return JSON.stringify(value);
  return value as Value;
}
