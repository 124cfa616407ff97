import { Module } from '@nestjs/common';
import { EventStoreModule } from '../event-store/event-store.module';
import { CONFIG, type Config } from '../platform/config/config';
import { DeadLetterStore } from './dead-letters';
import { LogFeed } from './log-feed';
import { SharedLeases } from './shared-leases';

/**
 * What every subscriber of the log shares, whatever kind it is (a read model's projection, a
 * process manager): the process's one reader of the log, its one lease session and the
 * dead-letter table. Read models and process managers are the two kinds of subscriber built on it.
 */
@Module({
  imports: [EventStoreModule],
  providers: [
    LogFeed,
    DeadLetterStore,
    { provide: SharedLeases, inject: [CONFIG], useFactory: (config: Config) => new SharedLeases(config) },
  ],
  exports: [LogFeed, DeadLetterStore, SharedLeases],
})
export class SubscriptionsModule {}
