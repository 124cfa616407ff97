import { Inject, Injectable, Module, type OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import { ConversationsModule } from '../conversations/conversations.module';
import { ConversationEngine } from '../conversations/engine/conversation-engine';
import { Clock } from '../platform/clock/clock';
import { CONFIG, type Config } from '../platform/config/config';
import { IdGenerator } from '../platform/ids/ids';
import { LOGGER } from '../platform/logging/logger';
import { ProcessManagers } from '../process-managers/process-managers';
import { BindPacer } from './bind-pacer';
import { ExternalEventsController } from './external-events.controller';
import { externalEventsProcessManager } from './external-events.process-manager';
import { ExternalEventsService } from './external-events.service';
import { keepRawBodies } from './raw-body';
import { EventStoreModule } from '../event-store/event-store.module';
import { ReadModelsModule } from '../read-models/read-models.module';
import { ProcessManagersModule } from '../process-managers/process-managers.module';

@Injectable()
class ExternalEventsLifecycle implements OnModuleInit {
  constructor(
    private readonly adapterHost: HttpAdapterHost,
    private readonly processManagers: ProcessManagers,
    private readonly engine: ConversationEngine,
    private readonly clock: Clock,
    private readonly ids: IdGenerator,
    @Inject(LOGGER) private readonly logger: Logger,
    private readonly pacer: BindPacer,
  ) {}

  onModuleInit() {
    // the platform's body limit (contract §2): 1 MiB
    keepRawBodies(this.adapterHost.httpAdapter.getInstance<FastifyInstance>(), 1024 * 1024);
    this.processManagers.register(
      externalEventsProcessManager({
        engine: this.engine,
        clock: this.clock,
        newId: () => this.ids.uuid(),
        logger: this.logger,
        pace: this.pacer,
      }),
    );
  }
}

/** External events (contract §9): the webhook, and the process manager that binds deliveries. */
@Module({
  imports: [EventStoreModule, ReadModelsModule, ProcessManagersModule, ConversationsModule],
  controllers: [ExternalEventsController],
  providers: [
    ExternalEventsService,
    ExternalEventsLifecycle,
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
