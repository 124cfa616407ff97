import { SqliteEventStore } from '../../src/event-store/sqlite/sqlite-event-store';
import { streamOf, turnEvents } from '../fixtures/turn-event';
import type { BenchCase } from '../lib/case';
import type { BenchContext } from '../lib/context';
import { perSecond, repeat, withDeadline } from '../lib/measure';
import { removeDb } from '../lib/paths';

interface AppendRun {
  rate: number;
  commits: number;
  appends: number;
}

/**
 * `count` single-event appends over 1,000 streams, `inFlight` callers each awaiting its own
 * append then taking the next event: the shape of many HTTP requests each appending one event.
 * Every run writes a fresh file, so all runs start from the same empty log.
 */
async function storeAppends(ctx: BenchContext, count: number, inFlight: number): Promise<AppendRun> {
  const events = turnEvents(count);
  const file = ctx.file(`store-${inFlight}.sqlite`);
  const store = await SqliteEventStore.open({ file, sync: 'full' });
  try {
    let next = 0;
    const caller = async () => {
      while (next < count) {
        const n = next++;
        await store.append(streamOf(n), [events[n]], 'any');
      }
    };
    const rate = await perSecond(count, () =>
      withDeadline(Promise.all(Array.from({ length: inFlight }, caller)).then(() => undefined), 600_000, 'store appends'),
    );
    const { commits, appends } = store.commitStats;
    if (appends !== count) throw new Error(`store committed ${appends} appends of ${count}`);
    return { rate, commits, appends };
  } finally {
    await store.close();
    removeDb(file);
  }
}

function appendCase(name: string, inFlight: number, size: (ctx: BenchContext) => number): BenchCase {
  return {
    name,
    async run(ctx) {
      const count = size(ctx);
      const commits: number[] = [];
      const r = await repeat(ctx.sizes.runs, async () => {
        const run = await storeAppends(ctx, count, inFlight);
        commits.push(run.commits);
        return run.rate;
      });
      const meanBatch = commits.map((c) => +(count / c).toFixed(1));
      return {
        ...r,
        unit: 'events/s',
        note: `SqliteEventStore sync=full, ${count} one-event appends, ${inFlight} in flight, ~${meanBatch[0]} appends/commit`,
        details: { appendsPerCommit: meanBatch, commits },
      };
    },
  };
}

export const storeAppendCases: BenchCase[] = [
  appendCase('store.append.64-in-flight.full', 64, (ctx) => ctx.sizes.storeInFlight),
  appendCase('store.append.1-awaiting.full', 1, (ctx) => ctx.sizes.storeSingle),
];
