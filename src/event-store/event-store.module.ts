import { Inject, Module, OnApplicationShutdown } from '@nestjs/common';
import type { Logger } from 'pino';
import { CONFIG, type Config } from '../platform/config/config';
import { LOGGER } from '../platform/logging/logger';
import { Metrics } from '../platform/metrics/metrics';
import { EVENT_STORE, type EventStore } from './event-store.port';
import { openEventStore } from './open-event-store';
import { SealingRegistry } from './sealing';
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
    SealingRegistry,
    {
      provide: EVENT_STORE,
      inject: [CONFIG, UpcasterRegistry, Metrics, LOGGER, SealingRegistry],
      // built from the configuration: EVENT_STORE=sqlite|eventstoredb|postgres
      useFactory: (
        config: Config,
        upcasters: UpcasterRegistry,
        metrics: Metrics,
        logger: Logger,
        sealing: SealingRegistry,
      ): Promise<EventStore> => openEventStore(config, upcasters, metrics, logger, sealing),
    },
    EventStoreCloser,
  ],
  exports: [EVENT_STORE, UpcasterRegistry, SealingRegistry],
})
export class EventStoreModule {}
