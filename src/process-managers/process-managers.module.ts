import { BeforeApplicationShutdown, Injectable, Module, OnApplicationBootstrap, OnModuleInit } from '@nestjs/common';
import { DiscoveryModule, DiscoveryService } from '@nestjs/core';
import type { Logger } from 'pino';
import type { DataSource } from 'typeorm';
import { EventStoreModule } from '../event-store/event-store.module';
import { EVENT_STORE, type EventStore } from '../event-store/event-store.port';
import { PLATFORM_DB } from '../platform/database/platform-database';
import { LOGGER } from '../platform/logging/logger';
import { DeadLetterStore } from '../subscriptions/dead-letters';
import { LogFeed } from '../subscriptions/log-feed';
import { ReadModelsModule } from '../read-models/read-models.module';
import { ReadModels } from '../read-models/read-models.service';
import { SharedLeases } from '../subscriptions/shared-leases';
import { SubscriptionsModule } from '../subscriptions/subscriptions.module';
import { RunsBehindTheLog, type BehindTheLogWork } from './behind-the-log';
import { ProcessManagers } from './process-managers';
import { Timers } from './timers';

/**
 * The catalogue of what runs behind the log: every provider marked `@RunsBehindTheLog()`, in any
 * module, found once all are built. Its process managers and timer handlers are registered here,
 * before anything starts.
 */
@Injectable()
class BehindTheLogCatalogue implements OnModuleInit {
  constructor(
    private readonly discovery: DiscoveryService,
    private readonly processManagers: ProcessManagers,
    private readonly timers: Timers,
  ) {}

  onModuleInit() {
    for (const provider of this.discovery.getProviders({ metadataKey: RunsBehindTheLog.KEY })) {
      const work = provider.instance as BehindTheLogWork;
      for (const manager of work.processManagers ?? []) this.processManagers.register(manager);
      for (const [owner, handler] of Object.entries(work.timerHandlers ?? {})) this.timers.handle(owner, handler);
    }
  }
}

/**
 * Starts everything behind the log in order: the read models and the process managers subscribe
 * first, so the one log feed starts where all of them need it (subscriptions/log-feed.ts); then the timers.
 * It lives here, above the read models, because it is the one place that knows both.
 */
@Injectable()
class BehindTheLogLifecycle implements OnApplicationBootstrap, BeforeApplicationShutdown {
  constructor(
    private readonly readModels: ReadModels,
    private readonly processManagers: ProcessManagers,
    private readonly timers: Timers,
    private readonly feed: LogFeed,
  ) {}

  async onApplicationBootstrap() {
    await this.readModels.start();
    await this.processManagers.start();
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

/** Process managers and durable timers: the work that reacts to the log and the clock. */
@Module({
  imports: [DiscoveryModule, EventStoreModule, SubscriptionsModule, ReadModelsModule],
  providers: [
    {
      provide: ProcessManagers,
      inject: [EVENT_STORE, PLATFORM_DB, LOGGER, SharedLeases, DeadLetterStore, LogFeed],
      // built from the configuration: on a shared PostgreSQL platform database, each manager runs in one process at a time
      useFactory: (
        store: EventStore,
        db: DataSource,
        logger: Logger,
        leases: SharedLeases,
        deadLetters: DeadLetterStore,
        feed: LogFeed,
      ) => new ProcessManagers(store, db, logger, leases.leaseFor, deadLetters, feed),
    },
    Timers,
    BehindTheLogCatalogue,
    BehindTheLogLifecycle,
  ],
  exports: [ProcessManagers, Timers],
})
export class ProcessManagersModule {}
