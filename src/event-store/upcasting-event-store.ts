import type { BatchHandler, EventStore, ReadAllOptions, ReadStreamOptions, SubscribeOptions } from './event-store.port';
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
  return {
    append: async (streamId, events, expected) =>
      store.append(streamId, await sealing.seal(streamId, events), expected),
    readStream: async (streamId: string, options?: ReadStreamOptions) =>
      (await sealing.open(await store.readStream(streamId, options))).map(up),
    readAll: async (options?: ReadAllOptions) => (await sealing.open(await store.readAll(options))).map(up),
    subscribeToAll: (options: SubscribeOptions, handler: BatchHandler) =>
      store.subscribeToAll(options, async (batch) => handler((await sealing.open(batch)).map(up))),
    headPosition: () => store.headPosition(),
    countAfter: (position) => store.countAfter(position),
    close: () => store.close(),
  };
}
