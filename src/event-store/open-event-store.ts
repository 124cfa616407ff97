import path from 'node:path';
import type { Config } from '../platform/config/config';
import type { EventStore } from './event-store.port';
import { SqliteEventStore } from './sqlite/sqlite-event-store';
import { UPCASTERS } from './upcasters';
import { Upcasters } from './upcasting';
import { withUpcasting } from './upcasting-event-store';

/** The adapter the configuration names, with every upcaster applied to reads. */
export async function openEventStore(config: Pick<Config, 'dataDir' | 'eventStoreSync'>): Promise<EventStore> {
  const store = await SqliteEventStore.open({ file: path.join(config.dataDir, 'events.sqlite'), sync: config.eventStoreSync });
  return withUpcasting(store, new Upcasters(UPCASTERS));
}
