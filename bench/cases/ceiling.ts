import Database from 'better-sqlite3';
import { configure } from '../../src/event-store/sqlite/schema';
import { EVENTS_DDL, INSERT_EVENT, schemaDrift } from '../fixtures/events-table';
import { filledLog } from '../fixtures/filled-log';
import { revisionOf, streamOf, turnEvents } from '../fixtures/turn-event';
import type { BenchCase } from '../lib/case';
import type { BenchContext } from '../lib/context';
import { perSecond, repeat } from '../lib/measure';
import { removeDb } from '../lib/paths';

/**
 * What SQLite itself allows on this disk, through better-sqlite3 with no store code around it:
 * the same table and indexes, the same pragmas (configure() from the store), WAL. The inputs are
 * the same prebuilt event objects the store cases append, and serialising them is timed here too,
 * since any writer of these rows has to do it.
 */
function openRaw(file: string): Database.Database {
  const db = new Database(file);
  configure(db, 'full');
  db.exec(EVENTS_DDL);
  return db;
}

function checkSchema(ctx: BenchContext): string | undefined {
  const drift = schemaDrift();
  if (drift === null) return undefined;
  ctx.log(`!!! the ceiling's copied DDL differs from the store's migrate():\n${drift}`);
  return 'DDL DRIFT: ceiling table differs from the store schema';
}

async function rawAppend(ctx: BenchContext, name: string, count: number, perTx: number): Promise<number> {
  const events = turnEvents(count);
  const file = ctx.file(`${name}.sqlite`);
  const db = openRaw(file);
  try {
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

export const ceilingCases: BenchCase[] = [
  {
    name: 'ceiling.append.100-per-tx.full',
    async run(ctx) {
      const drift = checkSchema(ctx);
      const r = await repeat(ctx.sizes.runs, () => rawAppend(ctx, 'ceiling-100', ctx.sizes.ceilingBatched, 100));
      return { ...r, unit: 'events/s', note: drift ?? `raw better-sqlite3, ${ctx.sizes.ceilingBatched} rows, 100 per tx, WAL, synchronous=FULL` };
    },
  },
  {
    name: 'ceiling.append.1-per-tx.full',
    async run(ctx) {
      const drift = checkSchema(ctx);
      const r = await repeat(ctx.sizes.runs, () => rawAppend(ctx, 'ceiling-1', ctx.sizes.ceilingSingle, 1));
      return { ...r, unit: 'events/s', note: drift ?? `raw better-sqlite3, ${ctx.sizes.ceilingSingle} rows, 1 per tx, WAL, synchronous=FULL` };
    },
  },
  {
    name: 'ceiling.scan.full-log',
    async run(ctx) {
      const log = await filledLog(ctx);
      const r = await repeat(ctx.sizes.runs, async () => {
        const db = new Database(log.file, { readonly: true });
        try {
          const all = db.prepare<[], { data: string; metadata: string }>('SELECT * FROM events ORDER BY global_position');
          let rows = 0;
          let sink = 0;
          const rate = await perSecond(log.events, () => {
            for (const row of all.iterate()) {
              // Keep the parsed values alive enough that the parse cannot be optimised away.
              sink += (JSON.parse(row.data) as { turnIndex: number }).turnIndex + (JSON.parse(row.metadata) as { schemaVersion: number }).schemaVersion;
              rows++;
            }
          });
          if (rows !== log.events || sink < 0) throw new Error(`raw scan read ${rows} rows of ${log.events}`);
          return rate;
        } finally {
          db.close();
        }
      });
      return { ...r, unit: 'events/s', note: `raw SELECT * ORDER BY global_position (iterate) + JSON.parse of data and metadata, ${log.events} events` };
    },
  },
];
