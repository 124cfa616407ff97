import type { EntityManager, EntityMetadata, EntityTarget, ObjectLiteral } from 'typeorm';
import { BatchedRows } from '../../apply/batch-memo';
import { definedColumns } from '../../apply/rows';

type Value = string | number | bigint | boolean | Buffer | null;

/** PostgreSQL takes at most 65,535 parameters a statement; a multi-row insert stays well under. */
const MAX_INSERT_PARAMS = 30_000;

interface Table {
  /** schema-qualified and quoted, ready for SQL */
  name: string;
  columns: Map<string, string>;
  primary: string[];
  /** how each column's values come back from `pg` into the entity's property */
  readers: Map<string, (value: unknown) => unknown>;
}

/**
 * The Rows of a projection batch on PostgreSQL: the same calls as the SQLite writer, the same SQL
 * shapes ($n placeholders), run on the batch's transaction (its EntityManager), each answering
 * after its round trip. SQL text is built once per table and row shape. One per batch: the
 * deferred upserts and remembered values belong to that batch's transaction.
 */
export class PgRows extends BatchedRows {
  private pending: { shape: string; table: Table; keys: string[]; values: Value[] } | null = null;

  constructor(
    private readonly em: EntityManager,
    private readonly sql: PgSqlCache,
  ) {
    super();
  }

  /**
   * Inserts of one shape in a row wait to go as one multi-row INSERT (a round trip per row is what
   * a rebuild would otherwise cost); any other call, and the batch's end, sends them first, so
   * every later read and write sees them.
   */
  async insert<T extends ObjectLiteral>(entity: EntityTarget<T>, row: Partial<T>): Promise<void> {
    const table = this.sql.table(this.em, entity);
    const keys = definedColumns(table, row);
    const shape = `${table.name}:${keys.join(',')}`;
    if (this.pending && this.pending.shape !== shape) await this.flush();
    this.pending ??= { shape, table, keys, values: [] };
    this.pending.values.push(...keys.map((k) => toValue(row[k])));
    if (this.pending.values.length >= MAX_INSERT_PARAMS - keys.length) await this.flush();
  }

  /** Sends the inserts waiting in `pending`. */
  async flush(): Promise<void> {
    const pending = this.pending;
    if (!pending) return;
    this.pending = null;
    const width = pending.keys.length;
    const rows = pending.values.length / width;
    const text = this.sql.cached(`i:${pending.shape}:${rows}`, () => {
      const tuples = Array.from(
        { length: rows },
        (_, r) => `(${Array.from({ length: width }, (_, c) => `$${r * width + c + 1}`).join(', ')})`,
      );
      return `INSERT INTO ${pending.table.name} (${quote(pending.table, pending.keys)}) VALUES ${tuples.join(', ')}`;
    });
    await this.em.query(text, pending.values);
  }

  async upsert<T extends ObjectLiteral>(entity: EntityTarget<T>, row: Partial<T>): Promise<void> {
    await this.flush();
    const table = this.sql.table(this.em, entity);
    const keys = definedColumns(table, row);
    const text = this.sql.cached(`u:${table.name}:${keys.join(',')}`, () => {
      const updates = keys.map((k) => table.columns.get(k)!).filter((c) => !table.primary.includes(c));
      const action = updates.length
        ? `DO UPDATE SET ${updates.map((c) => `"${c}" = excluded."${c}"`).join(', ')}`
        : 'DO NOTHING';
      return `INSERT INTO ${table.name} (${quote(table, keys)}) VALUES (${placeholders(keys.length)}) ON CONFLICT (${table.primary.map((c) => `"${c}"`).join(', ')}) ${action}`;
    });
    await this.em.query(
      text,
      keys.map((k) => toValue(row[k])),
    );
  }

  async update<T extends ObjectLiteral>(entity: EntityTarget<T>, where: Partial<T>, set: Partial<T>): Promise<number> {
    await this.flush();
    const table = this.sql.table(this.em, entity);
    const setKeys = definedColumns(table, set);
    const whereKeys = definedColumns(table, where);
    const text = this.sql.cached(
      `s:${table.name}:${setKeys.join(',')}:${whereKeys.join(',')}`,
      () =>
        `UPDATE ${table.name} SET ${setKeys.map((k, i) => `"${table.columns.get(k)}" = $${i + 1}`).join(', ')} WHERE ${conditions(table, whereKeys, setKeys.length)}`,
    );
    return affected(
      await this.em.query(text, [...setKeys.map((k) => toValue(set[k])), ...whereKeys.map((k) => toValue(where[k]))]),
    );
  }

  async increment<T extends ObjectLiteral>(
    entity: EntityTarget<T>,
    where: Partial<T>,
    property: keyof T & string,
    by: number,
  ): Promise<number> {
    await this.flush();
    const table = this.sql.table(this.em, entity);
    const whereKeys = definedColumns(table, where);
    const column = table.columns.get(property)!;
    const text = this.sql.cached(
      `+:${table.name}:${column}:${whereKeys.join(',')}`,
      () => `UPDATE ${table.name} SET "${column}" = "${column}" + $1 WHERE ${conditions(table, whereKeys, 1)}`,
    );
    return affected(await this.em.query(text, [by, ...whereKeys.map((k) => toValue(where[k]))]));
  }

  async delete<T extends ObjectLiteral>(entity: EntityTarget<T>, where: Partial<T>): Promise<number> {
    await this.flush();
    const table = this.sql.table(this.em, entity);
    const whereKeys = definedColumns(table, where);
    const text = this.sql.cached(
      `d:${table.name}:${whereKeys.join(',')}`,
      () => `DELETE FROM ${table.name} WHERE ${conditions(table, whereKeys, 0)}`,
    );
    return affected(
      await this.em.query(
        text,
        whereKeys.map((k) => toValue(where[k])),
      ),
    );
  }

  async findOne<T extends ObjectLiteral>(entity: EntityTarget<T>, where: Partial<T>): Promise<T | undefined> {
    await this.flush();
    const table = this.sql.table(this.em, entity);
    const whereKeys = definedColumns(table, where);
    const text = this.sql.cached(
      `f:${table.name}:${whereKeys.join(',')}`,
      () => `SELECT * FROM ${table.name} WHERE ${conditions(table, whereKeys, 0)} LIMIT 1`,
    );
    const rows = (await this.em.query(
      text,
      whereKeys.map((k) => toValue(where[k])),
    )) as Array<Record<string, unknown>>;
    if (rows.length === 0) return undefined;
    const out: Record<string, unknown> = {};
    for (const [property, column] of table.columns) out[property] = table.readers.get(column)!(rows[0][column]);
    return out as T;
  }

  /** applyBatch: the batch's handlers are done; write what they deferred. */
  async endBatch(): Promise<void> {
    await this.flush();
    for (const { entity, row } of this.batch.drain()) await this.upsert(entity, row);
  }
}

/** The EntityManager methods that read or write: a handler calling one sees the inserts before it. */
const DATA_METHODS = new Set([
  'query',
  'find',
  'findBy',
  'findOne',
  'findOneBy',
  'findOneOrFail',
  'findOneByOrFail',
  'findAndCount',
  'count',
  'countBy',
  'exists',
  'existsBy',
  'insert',
  'update',
  'upsert',
  'delete',
  'save',
  'remove',
  'increment',
  'decrement',
]);

/**
 * The batch's EntityManager as handlers get it next to PgRows: each data method first sends the
 * inserts PgRows holds back, so SQL a handler writes by hand reads what the batch wrote before.
 */
export function flushingEntityManager(em: EntityManager, rows: PgRows): EntityManager {
  return new Proxy(em, {
    get(target, property, receiver) {
      const value = Reflect.get(target, property, receiver);
      if (typeof value !== 'function' || typeof property !== 'string' || !DATA_METHODS.has(property)) return value;
      return async (...args: unknown[]) => {
        await rows.flush();
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
}

/** SQL text and table shapes of one read-model data source, kept across its batches. */
export class PgSqlCache {
  private readonly tables = new Map<unknown, Table>();
  private readonly texts = new Map<string, string>();

  table(em: EntityManager, entity: EntityTarget<ObjectLiteral>): Table {
    let table = this.tables.get(entity);
    if (!table) {
      const metadata: EntityMetadata = em.connection.getMetadata(entity);
      table = {
        name: metadata.schema ? `"${metadata.schema}"."${metadata.tableName}"` : `"${metadata.tableName}"`,
        columns: new Map(metadata.columns.map((c) => [c.propertyName, c.databaseName])),
        primary: metadata.primaryColumns.map((c) => c.databaseName),
        readers: new Map(metadata.columns.map((c) => [c.databaseName, readerOf(String(c.type))])),
      };
      this.tables.set(entity, table);
    }
    return table;
  }

  cached(key: string, build: () => string): string {
    let text = this.texts.get(key);
    if (text === undefined) {
      text = build();
      this.texts.set(key, text);
    }
    return text;
  }
}

/** `pg` answers bigint and numeric as strings (they may not fit a double); read-model numbers do. */
function readerOf(type: string): (value: unknown) => unknown {
  if (type === 'bigint' || type === 'int8' || type === 'numeric')
    return (v) => (v === null || v === undefined ? v : Number(v));
  return (v) => v;
}

function quote(table: Table, keys: string[]): string {
  return keys.map((k) => `"${table.columns.get(k)}"`).join(', ');
}

function placeholders(n: number): string {
  return Array.from({ length: n }, (_, i) => `$${i + 1}`).join(', ');
}

function conditions(table: Table, keys: string[], offset: number): string {
  if (keys.length === 0) throw new Error(`refusing an unconditional write to ${table.name}`);
  return keys.map((k, i) => `"${table.columns.get(k)}" = $${offset + i + 1}`).join(' AND ');
}

/** TypeORM's postgres driver answers [rows, affected] for UPDATE and DELETE. */
function affected(result: unknown): number {
  return Array.isArray(result) && typeof result[1] === 'number' ? result[1] : 0;
}

function toValue(value: unknown): Value {
  if (value === null || value === undefined) return null;
  if (value instanceof Date) return value.toISOString();
  if (typeof value === 'object' && !Buffer.isBuffer(value)) return JSON.stringify(value);
  return value as Value;
}
