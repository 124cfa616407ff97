import type { BatchHandler, EventStore, ReadAllOptions, ReadStreamOptions, SubscribeOptions } from './event-store.port';
import type { Upcasters } from './upcasting';

/** Wraps any adapter so every reader (deciders, projections, audit) sees upcast events. */
export function withUpcasting(store: EventStore, upcasters: Pick<Upcasters, 'apply'>): EventStore {
  const up = upcasters.apply.bind(upcasters);
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
}
