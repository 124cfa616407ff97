import Database from 'better-sqlite3';
import type { EventStore, RecordedEvent } from '../../src/event-store/event-store.port';
import { START } from '../../src/event-store/position';
import { SqliteEventStore } from '../../src/event-store/sqlite/sqlite-event-store';
import type { FilledLog } from '../fixtures/filled-log';
import { perSecond, withDeadline } from '../lib/measure';

export const PAGE = 1000;

/** The floor of any reader: one ordered scan, both JSON columns parsed, nothing else. */
export async function rawScan(log: FilledLog): Promise<number> {
  const db = new Database(log.file, { readonly: true });
  try {
    const all = db.prepare<[], { data: string; metadata: string }>('SELECT * FROM events ORDER BY global_position');
    let rows = 0;
    let sink = 0;
    const rate = await perSecond(log.events, () => {
      for (const row of all.iterate()) {
        // Use the parsed values, so the parse cannot be optimised away.
        sink +=
          (JSON.parse(row.data) as { turnIndex: number }).turnIndex +
          (JSON.parse(row.metadata) as { schemaVersion: number }).schemaVersion;
        rows++;
      }
    });
    if (rows !== log.events || sink < 0) throw new Error(`raw scan read ${rows} rows of ${log.events}`);
    return rate;
  } finally {
    db.close();
  }
}

/** The store's port (either store's), page by page, as a read model catching up reads it. */
export async function storeReadAll(store: EventStore, log: { events: number }): Promise<number> {
  let read = 0;
  const rate = await perSecond(log.events, async () => {
    let after = START;
    // Bounded: one page more than the log can fill.
    for (let page = 0; page <= Math.ceil(log.events / PAGE); page++) {
      const events: RecordedEvent[] = await store.readAll({ after, maxCount: PAGE });
      read += events.length;
      if (events.length < PAGE) break;
      after = events[events.length - 1].position;
    }
  });
  if (read !== log.events) throw new Error(`readAll read ${read} events of ${log.events}`);
  return rate;
}

/** The live path: one subscription from the start until it has delivered the whole log. */
export async function storeSubscribe(store: SqliteEventStore, log: FilledLog): Promise<number> {
  let read = 0;
  let reachedHead!: () => void;
  const caughtUp = new Promise<void>((resolve) => (reachedHead = resolve));
  const start = process.hrtime.bigint();
  const subscription = store.subscribeToAll({ after: START, maxBatchSize: PAGE }, (events) => {
    read += events.length;
    if (read >= log.events) reachedHead();
  });
  try {
    await withDeadline(Promise.race([caughtUp, subscription.done]), 600_000, 'subscribeToAll catch-up');
  } finally {
    await subscription.stop();
  }
  const seconds = Number(process.hrtime.bigint() - start) / 1e9;
  if (read !== log.events) throw new Error(`subscription delivered ${read} events of ${log.events}`);
  return log.events / seconds;
}
