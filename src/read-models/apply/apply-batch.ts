import type { DataSource, EntityManager } from 'typeorm';
import type { RecordedEvent } from '../../event-store/event-store.port';
import { START, type Position } from '../../event-store/position';
import { flushingEntityManager, PgRows, PgSqlCache } from '../generations/postgres/pg-rows';
import type { Projection } from '../projection';
import { RowWriter } from './row-writer';
import type { Rows } from './rows';

/** The checkpoint's statements in each dialect's placeholders (the table is the same). */
const CHECKPOINT = {
  sqlite: {
    read: 'SELECT position FROM projection_checkpoint WHERE name = ?',
    write: `INSERT INTO projection_checkpoint (name, version, position, updated_at) VALUES (?, ?, ?, ?)
  ON CONFLICT (name) DO UPDATE SET version = excluded.version, position = excluded.position, updated_at = excluded.updated_at`,
  },
  postgres: {
    read: 'SELECT position FROM projection_checkpoint WHERE name = $1',
    ensure:
      'INSERT INTO projection_checkpoint (name, version, position, updated_at) VALUES ($1, $2, $3, $4) ON CONFLICT (name) DO NOTHING',
    lock: 'SELECT position FROM projection_checkpoint WHERE name = $1 FOR UPDATE',
    write: `INSERT INTO projection_checkpoint (name, version, position, updated_at) VALUES ($1, $2, $3, $4)
  ON CONFLICT (name) DO UPDATE SET version = excluded.version, position = excluded.position, updated_at = excluded.updated_at`,
  },
};

const isPostgres = (source: DataSource) => source.options.type === 'postgres';
const checkpointSql = (source: DataSource) => CHECKPOINT[isPostgres(source) ? 'postgres' : 'sqlite'];

const writers = new WeakMap<DataSource, RowWriter>();
const pgSql = new WeakMap<DataSource, PgSqlCache>();

/** One writer (and its prepared statements) per data source. */
function rowWriterFor(source: DataSource): RowWriter {
  let writer = writers.get(source);
  if (!writer) {
    writer = new RowWriter(source);
    writers.set(source, writer);
  }
  return writer;
}

/**
 * The Rows a batch writes through. SQLite: the data source's writer on its one connection, which
 * the transaction holds. PostgreSQL: the transaction's own connection, out of a pool.
 */
function rowsFor(
  source: DataSource,
  em: EntityManager,
): { rows: Rows & { endBatch(): unknown; resetBatch?(): void }; em: EntityManager } {
  if (!isPostgres(source)) return { rows: rowWriterFor(source), em };
  let cache = pgSql.get(source);
  if (!cache) {
    cache = new PgSqlCache();
    pgSql.set(source, cache);
  }
  const rows = new PgRows(em, cache);
  return { rows, em: flushingEntityManager(em, rows) };
}

export async function readCheckpoint(source: DataSource | EntityManager, name: string): Promise<Position> {
  const dataSource = 'connection' in source ? source.connection : source;
  const rows: Array<{ position: Position }> = await source.query(checkpointSql(dataSource).read, [name]);
  return rows[0]?.position ?? START;
}

/**
 * PostgreSQL: the batch locks its checkpoint row first. Should two processes ever apply the same
 * projection (a lease lost in the middle of a batch), the second waits for the first to commit,
 * then skips what it applied: rows are never applied twice.
 */
async function lockCheckpoint(em: EntityManager, projection: Projection): Promise<Position> {
  await em.query(CHECKPOINT.postgres.ensure, [projection.name, projection.version, START, new Date().toISOString()]);
  const rows: Array<{ position: Position }> = await em.query(CHECKPOINT.postgres.lock, [projection.name]);
  return rows[0].position;
}

/**
 * Applies a batch and moves the checkpoint to `last` (the batch's last event unless given: a
 * caller that left out the events this projection ignores passes where the batch ended) in one
 * transaction: a crash leaves either both or neither. Events at or before the stored checkpoint
 * are skipped, so applying a batch twice (a retry, an overlapping subscription) changes nothing.
 */
export async function applyBatch(
  source: DataSource,
  projection: Projection,
  events: RecordedEvent[],
  last: Position = events[events.length - 1].position,
): Promise<Position> {
  const sql = checkpointSql(source);
  let rows: ReturnType<typeof rowsFor>['rows'] | null = null;
  try {
    await source.transaction(async (transaction) => {
      const batch = rowsFor(source, transaction);
      const em = batch.em;
      rows = batch.rows;
      rows.resetBatch?.();
      const checkpoint = isPostgres(source)
        ? await lockCheckpoint(em, projection)
        : await readCheckpoint(em, projection.name);
      for (const event of events) {
        if (event.position <= checkpoint) continue;
        const handler = projection.handles[event.type];
        if (!handler) continue;
        // the handler for this event's type (see Projection.handles)
        await handler(event as RecordedEvent<never>, em, rows);
      }
      await rows.endBatch();
      if (last > checkpoint)
        await em.query(sql.write, [projection.name, projection.version, last, new Date().toISOString()]);
    });
  } catch (error) {
    // the transaction rolled back: nothing the handlers remembered is true any more
    (rows as ReturnType<typeof rowsFor>['rows'] | null)?.resetBatch?.();
    throw error;
  }
  return last;
}

/**
 * Applies one event out of its turn, leaving the checkpoint where it is: a dead letter's retry,
 * long after the runner passed it. One transaction; on PostgreSQL it holds the checkpoint row's
 * lock, so it never interleaves with a batch of the runner.
 */
export async function applyAside(source: DataSource, projection: Projection, event: RecordedEvent): Promise<void> {
  const handler = projection.handles[event.type];
  if (!handler) throw new Error(`${projection.name} has no handler for ${event.type}`);
  let rows: ReturnType<typeof rowsFor>['rows'] | null = null;
  try {
    await source.transaction(async (transaction) => {
      const batch = rowsFor(source, transaction);
      rows = batch.rows;
      rows.resetBatch?.();
      if (isPostgres(source)) await lockCheckpoint(batch.em, projection);
      await handler(event as RecordedEvent<never>, batch.em, rows);
      await rows.endBatch();
    });
  } catch (error) {
    (rows as ReturnType<typeof rowsFor>['rows'] | null)?.resetBatch?.();
    throw error;
  }
}

/** Moves the checkpoint alone: after batches that held nothing for this projection. */
export async function writeCheckpoint(source: DataSource, projection: Projection, position: Position): Promise<void> {
  await source.query(`${checkpointSql(source).write} WHERE excluded.position > projection_checkpoint.position`, [
    projection.name,
    projection.version,
    position,
    new Date().toISOString(),
  ]);
}
