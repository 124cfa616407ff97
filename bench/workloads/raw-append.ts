import Database from 'better-sqlite3';
import { configure, migrate } from '../../src/event-store/sqlite/schema';
import { INSERT_EVENT } from '../fixtures/events-table';
import { revisionOf, streamOf, turnEvents } from '../fixtures/turn-event';
import type { BenchContext } from '../lib/context';
import { perSecond } from '../lib/measure';
import { removeDb } from '../lib/paths';

/**
 * What SQLite itself allows on this disk, through better-sqlite3 with no store code around it:
 * the same table and indexes, the same pragmas (configure() from the store), WAL. The inputs are
 * the same prebuilt event objects the store cases append, and serialising them is timed here too,
 * since any writer of these rows has to do it. Returns rows per second into a fresh file.
 */
export async function rawAppend(
  ctx: BenchContext,
  count: number,
  perTx: number,
  sync: 'full' | 'normal' = 'full',
): Promise<number> {
  const events = turnEvents(count);
  const file = ctx.file(`raw-append-${perTx}.sqlite`);
  const db = new Database(file);
  try {
    configure(db, sync);
    migrate(db);
    const insert = db.prepare(INSERT_EVENT);
    const writeRows = (from: number, to: number) => {
      for (let n = from; n < to; n++) {
        const e = events[n];
        insert.run(streamOf(n), revisionOf(n), e.id, e.type, JSON.stringify(e.data), JSON.stringify(e.metadata));
      }
    };
    // One row without a transaction is SQLite's autocommit: one transaction, one fsync.
    const tx = perTx === 1 ? writeRows : db.transaction(writeRows);
    return await perSecond(count, () => {
      for (let from = 0; from < count; from += perTx) tx(from, Math.min(count, from + perTx));
    });
  } finally {
    db.close();
    removeDb(file);
  }
}
