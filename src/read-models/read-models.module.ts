import { Injectable, Module, OnModuleInit } from '@nestjs/common';
import type { Logger } from 'pino';
import type { DataSource } from 'typeorm';
import { ALL_PROJECTIONS, PROJECTION_CATALOG } from '../../projections';
import { EventStoreModule } from '../event-store/event-store.module';
import { EVENT_STORE, type EventStore } from '../event-store/event-store.port';
import { CONFIG, type Config } from '../platform/config/config';
import { PLATFORM_DB } from '../platform/database/platform-database';
import { LOGGER } from '../platform/logging/logger';
import { Metrics } from '../platform/metrics/metrics';
import { DeadLetterStore } from '../subscriptions/dead-letters';
import { generationStorage } from './generations/generation-storage';
import { LogFeed } from '../subscriptions/log-feed';
import { ReadModelRegistry } from './generations/read-model-registry';
import { ReadModels } from './read-models.service';
import { RebuildJobs } from './generations/rebuild-jobs';
import { SharedLeases } from '../subscriptions/shared-leases';
import { SubscriptionsModule } from '../subscriptions/subscriptions.module';
import { ApplyThread } from './apply/thread-applier';

function applyThreadFor(config: Config): ApplyThread | null {
  return config.readModelDb === 'sqlite' && config.readModelApply === 'thread'
    ? new ApplyThread(PROJECTION_CATALOG, undefined, ALL_PROJECTIONS)
    : null;
}

/** Counts every dead letter on /metrics. */
@Injectable()
class DeadLetterCounter implements OnModuleInit {
  constructor(
    private readonly deadLetters: DeadLetterStore,
    private readonly metrics: Metrics,
  ) {}
  onModuleInit() {
    this.deadLetters.onRecorded(({ kind, name }) => this.metrics.deadLetters.inc({ kind, name }));
  }
}

/**
 * The read models: projections, their generations and the process's one reader of the log. They
 * are started (and stopped) by ProcessManagersModule, which starts the feed once the process
 * managers have subscribed too.
 */
@Module({
  imports: [EventStoreModule, SubscriptionsModule],
  providers: [
    DeadLetterCounter,
    {
      provide: ReadModelRegistry,
      inject: [PLATFORM_DB, CONFIG, DeadLetterStore],
      // built from the configuration: READ_MODEL_DB=postgres keeps generations as schemas in DATABASE_URL's database, else files under DATA_DIR
      useFactory: (db: DataSource, config: Config, deadLetters: DeadLetterStore) =>
        new ReadModelRegistry(db, generationStorage(config), deadLetters),
    },
    {
      provide: ReadModels,
      inject: [EVENT_STORE, ReadModelRegistry, LOGGER, CONFIG, LogFeed, SharedLeases],
      // built from the configuration: on a shared PostgreSQL platform database, each projection is
      // applied by one process at a time; SQLite read models are written on a thread of their own
      // unless READ_MODEL_APPLY=inline
      useFactory: (
        store: EventStore,
        registry: ReadModelRegistry,
        logger: Logger,
        config: Config,
        feed: LogFeed,
        leases: SharedLeases,
      ) =>
        new ReadModels(
          ALL_PROJECTIONS,
          store,
          registry,
          logger,
          config.readYourWritesTimeoutMs,
          leases.leaseFor,
          applyThreadFor(config),
          feed,
        ),
    },
    {
      provide: RebuildJobs,
      inject: [EVENT_STORE, ReadModelRegistry],
      // the operator API's rebuilds, of the same catalogue the runners apply
      useFactory: (store: EventStore, registry: ReadModelRegistry) => new RebuildJobs(ALL_PROJECTIONS, store, registry),
    },
  ],
  exports: [ReadModels, ReadModelRegistry, RebuildJobs],
})
export class ReadModelsModule {}
