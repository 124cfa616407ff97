import { SqliteEventStore } from '../../src/event-store/sqlite/sqlite-event-store';
import { filledLog } from '../fixtures/filled-log';
import { streamOf } from '../fixtures/turn-event';
import type { BenchCase } from '../lib/case';
import { repeat, secondsSince } from '../lib/measure';
import { PAGE, storeSubscribe } from '../workloads/full-log-read';
import { fullLogReads, sideOf } from './pairs';

/** Reading the shared log through the store's port (workloads/full-log-read.ts). */
export const storeReadCases: BenchCase[] = [
  {
    name: 'store.read.readAll-pages-1000',
    async run(ctx) {
      const r = sideOf((await fullLogReads(ctx)).store, this.name);
      return {
        ...r,
        unit: 'events/s',
        note: `readAll({after, maxCount: ${PAGE}}) until the head, ${ctx.sizes.logEvents} events`,
      };
    },
  },
  {
    name: 'store.read.subscribeToAll',
    async run(ctx) {
      const log = await filledLog(ctx);
      const store = await SqliteEventStore.open({ file: log.file, sync: 'full' });
      try {
        const r = await repeat(ctx.sizes.runs, () => storeSubscribe(store, log));
        return { ...r, unit: 'events/s', note: `subscribeToAll from the start, batches of ${PAGE}, until the head` };
      } finally {
        await store.close();
      }
    },
  },
  {
    // The read every command does before it decides (a conversation's events, or its last one):
    // a cached statement run with a new stream and limit each time. It caught SQLite re-planning
    // `LIMIT ?` at every bind (platform/database/limited-statements.ts).
    name: 'store.read.readStream',
    async run(ctx) {
      const log = await filledLog(ctx);
      const store = await SqliteEventStore.open({ file: log.file, sync: 'full' });
      const reads = ctx.quick ? 50_000 : 200_000;
      try {
        const r = await repeat(ctx.sizes.runs, async () => {
          const start = process.hrtime.bigint();
          for (let i = 0; i < reads; i++) {
            const streamId = streamOf(i * 7919);
            await store.readStream(streamId, { direction: 'backwards', maxCount: 1 + (i % 2) });
          }
          return reads / secondsSince(start);
        });
        return {
          ...r,
          unit: 'reads/s',
          note: `${reads} reads of the last event or two of one stream of 1,000 (backwards, maxCount 1 and 2 alternating)`,
        };
      } finally {
        await store.close();
      }
    },
  },
];
