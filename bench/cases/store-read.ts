import { SqliteEventStore } from '../../src/event-store/sqlite/sqlite-event-store';
import { filledLog } from '../fixtures/filled-log';
import type { BenchCase } from '../lib/case';
import { repeat } from '../lib/measure';
import { PAGE, storeSubscribe } from '../workloads/full-log-read';
import { fullLogReads, sideOf } from './pairs';

/** Reading the shared log through the store's port (workloads/full-log-read.ts). */
export const storeReadCases: BenchCase[] = [
  {
    name: 'store.read.readAll-pages-1000',
    async run(ctx) {
      const r = sideOf((await fullLogReads(ctx)).store, this.name);
      return { ...r, unit: 'events/s', note: `readAll({after, maxCount: ${PAGE}}) until the head, ${ctx.sizes.logEvents} events` };
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
];
