import type {
  BatchHandler,
  EventStore,
  ReadAllOptions,
  ReadStreamOptions,
  RecordedEvent,
  SubscribeOptions,
} from './event-store.port';
import type { EventSealing } from './sealing';
import type { Upcasters } from './upcasting';

/**
 * Wraps any adapter so every reader (deciders, projections, audit) sees events opened (sealing.ts)
 * and upcast, and every append is sealed before it is stored.
 */
export function withUpcasting(
  store: EventStore,
  upcasters: Pick<Upcasters, 'apply'>,
  sealing: EventSealing | null = null,
): EventStore {
  const up = upcasters.apply.bind(upcasters);
  if (!sealing)
    return {
      append: (streamId, events, expected) => store.append(streamId, events, expected),
      readStream: async (streamId: string, options?: ReadStreamOptions) =>
        (await store.readStream(streamId, options)).map(up),
      readAll: async (options?: ReadAllOptions) => (await store.readAll(options)).map(up),
      subscribeToAll: (options: SubscribeOptions, handler: BatchHandler) =>
        store.subscribeToAll(options, (batch) => handler(batch.map(up))),
      headPosition: () => store.headPosition(),
      countAfter: (position) => store.countAfter(position),
      close: () => store.close(),
    };
  // Appends reach the store in the order they were called, as without sealing: the group commit
  // orders a batch by arrival, and a caller that starts two appends without awaiting the first
  // (a channel ending its conversation, then its session) relies on it.
  let arrival: Promise<unknown> = Promise.resolve();
  return {
    append: (streamId, events, expected) => {
      const sealed = sealing.seal(streamId, events);
      const appended = arrival.then(async () => ({ result: store.append(streamId, await sealed, expected) }));
      arrival = appended.catch(() => undefined);
      return appended.then(({ result }) => result);
    },
    readStream: async (streamId: string, options?: ReadStreamOptions) =>
      (await sealing.open(await store.readStream(streamId, options))).map(up),
    readAll: async (options?: ReadAllOptions) => (await sealing.open(await store.readAll(options))).map(up),
    subscribeToAll: (options: SubscribeOptions, handler: BatchHandler) => {
      let stopped = false;
      const subscription = store.subscribeToAll(options, async (batch) =>
        handler((await openPatiently(sealing, batch, () => stopped)).map(up)),
      );
      return {
        stop: () => {
          stopped = true;
          return subscription.stop();
        },
        get done() {
          return subscription.done;
        },
        nudge: () => subscription.nudge(),
      };
    },
    headPosition: () => store.headPosition(),
    countAfter: (position) => store.countAfter(position),
    close: () => store.close(),
  };
}

/**
 * A batch opened for a subscriber, trying again while the key store cannot answer (its database
 * restarting): the subscriber's own failure handling never sees an event it could not read, and
 * nothing is skipped. Backs off to a second between tries; gives up only when unsubscribed.
 */
async function openPatiently(sealing: EventSealing, batch: RecordedEvent[], stopped: () => boolean) {
  for (let attempt = 0; ; attempt++) {
    try {
      return await sealing.open(batch);
    } catch (error) {
      if (stopped()) throw error;
      await new Promise((resolve) => setTimeout(resolve, Math.min(1000, 50 * 2 ** attempt)));
    }
  }
}
