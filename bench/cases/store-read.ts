import type { RecordedEvent } from '../../src/event-store/event-store.port';
import { START } from '../../src/event-store/position';
import { SqliteEventStore } from '../../src/event-store/sqlite/sqlite-event-store';
import { filledLog } from '../fixtures/filled-log';
import type { BenchCase } from '../lib/case';
import { perSecond, repeat, withDeadline } from '../lib/measure';

const PAGE = 1000;

/** Reads the shared log through the store's port, as a read model catching up would. */
export const storeReadCases: BenchCase[] = [
  {
    name: 'store.read.readAll-pages-1000',
    async run(ctx) {
      const log = await filledLog(ctx);
      const store = await SqliteEventStore.open({ file: log.file, sync: 'full' });
      try {
        const r = await repeat(ctx.sizes.runs, async () => {
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
        });
        return { ...r, unit: 'events/s', note: `readAll({after, maxCount: ${PAGE}}) until the head, ${log.events} events` };
      } finally {
        await store.close();
      }
    },
  },
  {
    name: 'store.read.subscribeToAll',
    async run(ctx) {
      const log = await filledLog(ctx);
      const store = await SqliteEventStore.open({ file: log.file, sync: 'full' });
      try {
        const r = await repeat(ctx.sizes.runs, async () => {
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
        });
        return { ...r, unit: 'events/s', note: `subscribeToAll from the start, batches of ${PAGE}, until the head` };
      } finally {
        await store.close();
      }
    },
  },
];
