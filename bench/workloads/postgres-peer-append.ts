import { streamOf, turnEvents } from '../fixtures/turn-event';
import type { Sample } from '../lib/alternate';
import { freshDatabase } from '../lib/bench-postgres';
import type { BenchContext } from '../lib/context';
import { perSecond, withDeadline } from '../lib/measure';
import type { PeerEvent, PostgresPeerStore } from '../lib/peer-install';

/**
 * Emmett's PostgreSQL store under the store case's load (workloads/store-append.ts): `count`
 * one-event appends over 1,000 streams by `inFlight` callers, each awaiting its own. Emmett as it
 * comes: getPostgreSQLEventStore(url), its own pool (pg's default, 10 connections), a transaction
 * per append. A fresh database per run; its schema is created before the timing.
 */
export async function postgresPeerAppends(
  ctx: BenchContext,
  emmett: { getPostgreSQLEventStore(url: string): PostgresPeerStore; endAllPools(): Promise<unknown> },
  count: number,
  inFlight: number,
): Promise<Sample> {
  const events: PeerEvent[] = turnEvents(count).map((e) => ({
    type: e.type,
    data: e.data as unknown as Record<string, unknown>,
    metadata: { ...e.metadata, eventId: e.id },
  }));
  const db = await freshDatabase(ctx, 'peer_append');
  try {
    const store = emmett.getPostgreSQLEventStore(db.url);
    try {
      await store.appendToStream('warmup-0', [{ type: 'Warmup', data: {} }]);
      let next = 0;
      const caller = async () => {
        while (next < count) {
          const n = next++;
          await store.appendToStream(streamOf(n), [events[n]]);
        }
      };
      const value = await perSecond(count, () =>
        withDeadline(
          Promise.all(Array.from({ length: inFlight }, caller)).then(() => undefined),
          600_000,
          'peer appends',
        ),
      );
      return { value };
    } finally {
      await store.close();
      await emmett.endAllPools();
    }
  } finally {
    await db.drop();
  }
}
