import { Injectable, Module, type OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { FastifyInstance } from 'fastify';
import { ConversationsModule } from '../conversations/conversations.module';
import { Clock } from '../platform/clock/clock';
import { CONFIG, type Config } from '../platform/config/config';
import { BindPacer } from './bind-pacer';
import { ExternalEventsController } from './external-events.controller';
import { ExternalEventsService } from './external-events.service';
import { ExternalEventsBehindTheLog } from './external-events-behind-the-log';
import { keepRawBodies } from './raw-body';
import { EventStoreModule } from '../event-store/event-store.module';
import { ReadModelsModule } from '../read-models/read-models.module';
import { ProcessManagersModule } from '../process-managers/process-managers.module';

/** The webhook reads its body raw (its signature is over the bytes). */
@Injectable()
class ExternalEventsRawBodies implements OnModuleInit {
  constructor(private readonly adapterHost: HttpAdapterHost) {}

  onModuleInit() {
    // the platform's body limit (contract §2): 1 MiB
    keepRawBodies(this.adapterHost.httpAdapter.getInstance<FastifyInstance>(), 1024 * 1024);
  }
}

/** External events (contract §9): the webhook, and the process manager that binds deliveries. */
@Module({
  imports: [EventStoreModule, ReadModelsModule, ProcessManagersModule, ConversationsModule],
  controllers: [ExternalEventsController],
  providers: [
    ExternalEventsService,
    ExternalEventsRawBodies,
    ExternalEventsBehindTheLog,
    // built from the configuration: EXTERNAL_EVENTS_MAX_BIND_DELAY_MS
    {
      provide: BindPacer,
      inject: [CONFIG, Clock],
      useFactory: (config: Config, clock: Clock) =>
        new BindPacer(
          {
            maxDelayMs: config.externalEvents.maxBindDelayMs,
            behindMs: 250,
            saturatedAt: 0.75,
            quietMs: 100,
            busyInFlight: 8,
          },
          () => clock.nowMs(),
        ),
    },
  ],
})
export class ExternalEventsModule {}
