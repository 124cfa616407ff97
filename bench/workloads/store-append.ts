import type { EventStore, NewEvent } from '../../src/event-store/event-store.port';
import { SqliteEventStore } from '../../src/event-store/sqlite/sqlite-event-store';
import { streamOf, turnEvents } from '../fixtures/turn-event';
import type { Sample } from '../lib/alternate';
import type { BenchContext } from '../lib/context';
import { perSecond, withDeadline } from '../lib/measure';
import { removeDb } from '../lib/paths';

/** A store that counts its group commits (both SqliteEventStore and PostgresEventStore do). */
export type CountingStore = EventStore & { readonly commitStats: { commits: number; appends: number } };

/**
 * `count` single-event appends over 1,000 streams by `inFlight` callers, each awaiting its own
 * append then taking the next event: the shape of many HTTP requests each appending one event.
 * A fresh file per run, so every run starts from the same empty log.
 */
export async function storeAppends(ctx: BenchContext, count: number, inFlight: number): Promise<Sample> {
  const events = turnEvents(count);
  const file = ctx.file(`store-append-${inFlight}.sqlite`);
  const store = await SqliteEventStore.open({ file, sync: 'full' });
  try {
    return await driveAppends(store, events, inFlight);
  } finally {
    await store.close();
    removeDb(file);
  }
}

/** The callers of storeAppends on any store: the rate, and the appends each commit carried. */
export async function driveAppends(store: CountingStore, events: NewEvent[], inFlight: number): Promise<Sample> {
  const count = events.length;
  let next = 0;
  const caller = async () => {
    while (next < count) {
      const n = next++;
      await store.append(streamOf(n), [events[n]], 'any');
    }
  };
  const value = await perSecond(count, () =>
    withDeadline(
      Promise.all(Array.from({ length: inFlight }, caller)).then(() => undefined),
      600_000,
      'store appends',
    ),
  );
  const { commits, appends } = store.commitStats;
  if (appends !== count) throw new Error(`store committed ${appends} appends of ${count}`);
  return { value, detail: { commits, appendsPerCommit: +(appends / commits).toFixed(1) } };
}
