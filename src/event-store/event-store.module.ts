import { Global, Inject, Module, OnApplicationShutdown } from '@nestjs/common';
import { CONFIG, type Config } from '../platform/config/config';
import { UPCASTERS } from './upcasters';
import { EVENT_STORE, type EventStore } from './event-store.port';
import { SqliteEventStore } from './sqlite/sqlite-event-store';
import { Upcasters } from './upcasting';
import { withUpcasting } from './upcasting-event-store';
import path from 'node:path';

class EventStoreCloser implements OnApplicationShutdown {
  constructor(@Inject(EVENT_STORE) private readonly store: EventStore) {}
  async onApplicationShutdown() {
    await this.store.close();
  }
}

/** The event store port, bound to the adapter the configuration names. */
@Global()
@Module({
  providers: [
    {
      provide: EVENT_STORE,
      inject: [CONFIG],
      useFactory: async (config: Config): Promise<EventStore> => {
        const store = await SqliteEventStore.open({ file: path.join(config.dataDir, 'events.sqlite'), sync: config.eventStoreSync });
        return withUpcasting(store, new Upcasters(UPCASTERS));
      },
    },
    EventStoreCloser,
  ],
  exports: [EVENT_STORE],
})
export class EventStoreModule {}
