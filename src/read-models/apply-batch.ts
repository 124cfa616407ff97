import type { DataSource, EntityManager } from 'typeorm';
import type { RecordedEvent } from '../event-store/event-store.port';
import { START, type Position } from '../event-store/position';
import type { Projection } from './projection';
import { RowWriter } from './row-writer';

const READ = 'SELECT position FROM projection_checkpoint WHERE name = ?';
const WRITE = `INSERT INTO projection_checkpoint (name, version, position, updated_at) VALUES (?, ?, ?, ?)
  ON CONFLICT (name) DO UPDATE SET version = excluded.version, position = excluded.position, updated_at = excluded.updated_at`;

const writers = new WeakMap<DataSource, RowWriter>();

/** One writer (and its prepared statements) per data source. */
export function rowWriterFor(source: DataSource): RowWriter {
  let writer = writers.get(source);
  if (!writer) {
    writer = new RowWriter(source);
    writers.set(source, writer);
  }
  return writer;
}

export async function readCheckpoint(source: DataSource | EntityManager, name: string): Promise<Position> {
  const rows: Array<{ position: Position }> = await source.query(READ, [name]);
  return rows[0]?.position ?? START;
}

/**
 * Applies a batch and moves the checkpoint in one transaction: a crash leaves either both or
 * neither. Events at or before the stored checkpoint are skipped, so applying a batch twice
 * (a retry, an overlapping subscription) changes nothing.
 */
export async function applyBatch(source: DataSource, projection: Projection, events: RecordedEvent[]): Promise<Position> {
  const last = events[events.length - 1].position;
  const rows = rowWriterFor(source);
  rows.resetBatch();
  try {
    await source.transaction(async (em) => {
      const checkpoint = await readCheckpoint(em, projection.name);
      for (const event of events) {
        if (event.position <= checkpoint) continue;
        const handler = projection.handles[event.type];
        if (!handler) continue;
        await handler(event, em, rows);
      }
      rows.endBatch();
      if (last > checkpoint) await em.query(WRITE, [projection.name, projection.version, last, new Date().toISOString()]);
    });
  } catch (error) {
    // the transaction rolled back: nothing the handlers remembered is true any more
    rows.resetBatch();
    throw error;
  }
  return last;
}

/** Moves the checkpoint alone: after batches that held nothing for this projection. */
export async function writeCheckpoint(source: DataSource, projection: Projection, position: Position): Promise<void> {
  await source.query(`${WRITE} WHERE excluded.position > projection_checkpoint.position`, [projection.name, projection.version, position, new Date().toISOString()]);
}

export function handlesAny(projection: Projection, events: RecordedEvent[]): boolean {
  return events.some((event) => projection.handles[event.type] !== undefined);
}
