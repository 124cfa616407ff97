import { BeforeApplicationShutdown, Global, Injectable, Module, OnApplicationBootstrap } from '@nestjs/common';
import type { Logger } from 'pino';
import type { DataSource } from 'typeorm';
import { ALL_PROJECTIONS } from '../../projections';
import { EVENT_STORE, type EventStore } from '../event-store/event-store.port';
import { Clock } from '../platform/clock/clock';
import { CONFIG, type Config } from '../platform/config/config';
import { PLATFORM_DB } from '../platform/database/platform-database';
import { LOGGER } from '../platform/logging/logger';
import { ProcessManagers } from './process-managers';
import { ReadModelRegistry } from './read-model-registry';
import { ReadModels } from './read-models.service';
import { Timers } from './timers';

@Injectable()
class ReadSideLifecycle implements OnApplicationBootstrap, BeforeApplicationShutdown {
  constructor(
    private readonly readModels: ReadModels,
    private readonly processManagers: ProcessManagers,
    private readonly timers: Timers,
  ) {}
  async onApplicationBootstrap() {
    await this.readModels.start();
    await this.processManagers.start();
    this.timers.start();
  }
  async beforeApplicationShutdown() {
    await this.timers.stop();
    await this.processManagers.stop();
    await this.readModels.stop();
  }
}

/** Projections, process managers and timers: everything that runs behind the log. */
@Global()
@Module({
  providers: [
    {
      provide: ReadModelRegistry,
      inject: [PLATFORM_DB, CONFIG],
      useFactory: (db: DataSource, config: Config) => new ReadModelRegistry(db, config.dataDir),
    },
    {
      provide: ReadModels,
      inject: [EVENT_STORE, ReadModelRegistry, LOGGER, CONFIG],
      useFactory: (store: EventStore, registry: ReadModelRegistry, logger: Logger, config: Config) =>
        new ReadModels(ALL_PROJECTIONS, store, registry, logger, config.readYourWritesTimeoutMs),
    },
    {
      provide: ProcessManagers,
      inject: [EVENT_STORE, PLATFORM_DB, LOGGER],
      useFactory: (store: EventStore, db: DataSource, logger: Logger) => new ProcessManagers(store, db, logger),
    },
    {
      provide: Timers,
      inject: [PLATFORM_DB, Clock, LOGGER],
      useFactory: (db: DataSource, clock: Clock, logger: Logger) => new Timers(db, clock, logger),
    },
    ReadSideLifecycle,
  ],
  exports: [ReadModels, ProcessManagers, Timers, ReadModelRegistry],
})
export class ReadModelsModule {}
