import path from 'node:path';
import type { Config } from '../platform/config/config';
import type { Metrics } from '../platform/metrics/metrics';
import type { EventStore } from './event-store.port';
import { SqliteEventStore } from './sqlite/sqlite-event-store';
import { UPCASTERS } from './upcasters';
import { Upcasters } from './upcasting';
import { withUpcasting } from './upcasting-event-store';

/** The adapter the configuration names, with every upcaster applied to reads. */
export async function openEventStore(config: Pick<Config, 'dataDir' | 'eventStoreSync'>, metrics?: Metrics): Promise<EventStore> {
  const store = await SqliteEventStore.open({ file: path.join(config.dataDir, 'events.sqlite'), sync: config.eventStoreSync, onCommit: metrics ? (appends) => metrics.commitSize.observe(appends) : undefined });
  const upcast = withUpcasting(store, new Upcasters(UPCASTERS));
  return metrics ? withAppendTiming(upcast, metrics) : upcast;
}

/** Times every append from call to durable acknowledgement. */
function withAppendTiming(store: EventStore, metrics: Metrics): EventStore {
  return {
    ...store,
    readStream: store.readStream.bind(store),
    readAll: store.readAll.bind(store),
    subscribeToAll: store.subscribeToAll.bind(store),
    headPosition: store.headPosition.bind(store),
    countAfter: store.countAfter.bind(store),
    close: store.close.bind(store),
    append: async (streamId, events, expected) => {
      const end = metrics.appendDuration.startTimer();
      try {
        return await store.append(streamId, events, expected);
      } finally {
        end();
      }
    },
  };
}
