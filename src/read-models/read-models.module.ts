import { BeforeApplicationShutdown, Injectable, Module, OnApplicationBootstrap } from '@nestjs/common';
import type { Logger } from 'pino';
import type { DataSource } from 'typeorm';
import { ALL_PROJECTIONS } from '../../projections';
import { EventStoreModule } from '../event-store/event-store.module';
import { EVENT_STORE, type EventStore } from '../event-store/event-store.port';
import { Clock } from '../platform/clock/clock';
import { CONFIG, type Config } from '../platform/config/config';
import { PLATFORM_DB } from '../platform/database/platform-database';
import { LOGGER } from '../platform/logging/logger';
import { Metrics } from '../platform/metrics/metrics';
import { DeadLetterStore } from './dead-letters';
import { generationStorage } from './generation-storage';
import { AdvisoryLease, type Lease } from './postgres/advisory-lease';
import { ProcessManagers } from '../process-managers/process-managers';
import { ReadModelRegistry } from './read-model-registry';
import { ReadModels } from './read-models.service';
import { ApplyThread } from './thread-applier';
import { LogFeed } from './log-feed';
import { Timers } from '../process-managers/timers';

/** Leases in the shared PostgreSQL database; none when the process runs alone on its SQLite files. */
function sharedLeases(config: Config): ((name: string) => Lease | null) | undefined {
  const url = config.databaseUrl;
  return url === null ? undefined : (name) => new AdvisoryLease(url, name);
}

function applyThreadFor(config: Config): ApplyThread | null {
  return config.readModelDb === 'sqlite' && config.readModelApply === 'thread' ? new ApplyThread() : null;
}

@Injectable()
class ReadSideLifecycle implements OnApplicationBootstrap, BeforeApplicationShutdown {
  constructor(
    private readonly readModels: ReadModels,
    private readonly processManagers: ProcessManagers,
    private readonly timers: Timers,
    private readonly feed: LogFeed,
  ) {}
  async onApplicationBootstrap() {
    await this.readModels.start();
    await this.processManagers.start();
    // once every runner and manager has joined: the feed starts where they need it (log-feed.ts)
    await this.feed.start();
    this.timers.start();
  }
  async beforeApplicationShutdown() {
    await this.timers.stop();
    await this.processManagers.stop();
    await this.readModels.stop();
    await this.feed.stop();
  }
}

/** Projections, process managers and timers: everything that runs behind the log. */
@Module({
  imports: [EventStoreModule],
  providers: [
    {
      provide: DeadLetterStore,
      inject: [PLATFORM_DB, Metrics],
      useFactory: (db: DataSource, metrics: Metrics) => {
        const store = new DeadLetterStore(db);
        store.onRecorded(({ kind, name }) => metrics.deadLetters.inc({ kind, name }));
        return store;
      },
    },
    {
      provide: ReadModelRegistry,
      inject: [PLATFORM_DB, CONFIG, DeadLetterStore],
      // READ_MODEL_DB=postgres: generations are schemas in DATABASE_URL's database; else files under DATA_DIR
      useFactory: (db: DataSource, config: Config, deadLetters: DeadLetterStore) =>
        new ReadModelRegistry(db, generationStorage(config), deadLetters),
    },
    {
      provide: LogFeed,
      inject: [EVENT_STORE],
      useFactory: (store: EventStore) => new LogFeed(store),
    },
    {
      provide: ReadModels,
      inject: [EVENT_STORE, ReadModelRegistry, LOGGER, CONFIG, LogFeed],
      // on a shared PostgreSQL platform database, each projection is applied by one process at a time
      // SQLite read models are written on a thread of their own unless READ_MODEL_APPLY=inline
      useFactory: (store: EventStore, registry: ReadModelRegistry, logger: Logger, config: Config, feed: LogFeed) =>
        new ReadModels(
          ALL_PROJECTIONS,
          store,
          registry,
          logger,
          config.readYourWritesTimeoutMs,
          sharedLeases(config),
          applyThreadFor(config),
          feed,
        ),
    },
    {
      provide: ProcessManagers,
      inject: [EVENT_STORE, PLATFORM_DB, LOGGER, CONFIG, DeadLetterStore, LogFeed],
      // on a shared PostgreSQL platform database, each manager runs in one process at a time
      useFactory: (
        store: EventStore,
        db: DataSource,
        logger: Logger,
        config: Config,
        deadLetters: DeadLetterStore,
        feed: LogFeed,
      ) => new ProcessManagers(store, db, logger, sharedLeases(config), deadLetters, feed),
    },
    {
      provide: Timers,
      inject: [PLATFORM_DB, Clock, LOGGER, DeadLetterStore],
      useFactory: (db: DataSource, clock: Clock, logger: Logger, deadLetters: DeadLetterStore) =>
        new Timers(db, clock, logger, deadLetters),
    },
    ReadSideLifecycle,
  ],
  exports: [ReadModels, ProcessManagers, Timers, ReadModelRegistry, DeadLetterStore],
})
export class ReadModelsModule {}
