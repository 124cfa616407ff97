import { Inject, Module, OnApplicationShutdown } from '@nestjs/common';
import type { Logger } from 'pino';
import { CONFIG, type Config } from '../platform/config/config';
import { LOGGER } from '../platform/logging/logger';
import { Metrics } from '../platform/metrics/metrics';
import { EVENT_STORE, type EventStore } from './event-store.port';
import { openEventStore } from './open-event-store';
import { UpcasterRegistry } from './upcaster-registry';

class EventStoreCloser implements OnApplicationShutdown {
  constructor(@Inject(EVENT_STORE) private readonly store: EventStore) {}
  async onApplicationShutdown() {
    await this.store.close();
  }
}

/** The event store port, bound to the adapter the configuration names. */
@Module({
  providers: [
    UpcasterRegistry,
    {
      provide: EVENT_STORE,
      inject: [CONFIG, UpcasterRegistry, Metrics, LOGGER],
      // built from the configuration: EVENT_STORE=sqlite|eventstoredb
      useFactory: (
        config: Config,
        upcasters: UpcasterRegistry,
        metrics: Metrics,
        logger: Logger,
      ): Promise<EventStore> => openEventStore(config, upcasters, metrics, logger),
    },
    EventStoreCloser,
  ],
  exports: [EVENT_STORE, UpcasterRegistry],
})
export class EventStoreModule {}
