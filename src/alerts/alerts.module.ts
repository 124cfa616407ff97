import { Module } from '@nestjs/common';
import type { Logger } from 'pino';
import type { DataSource } from 'typeorm';
import { EVENT_STORE, type EventStore } from '../event-store/event-store.port';
import { Clock } from '../platform/clock/clock';
import { PLATFORM_DB } from '../platform/database/platform-database';
import { LOGGER } from '../platform/logging/logger';
import { Metrics } from '../platform/metrics/metrics';
import { ReadModels } from '../read-models/read-models.service';
import { AlertEvaluator } from './alert-evaluator';
import { ApiErrorRecorder } from './api-error-recorder';
import { AGENT_DIRECTORY, type AgentDirectory } from '../platform/auth/agent-directory';
import { AlertRulesController } from './alert-rules.controller';
import { AlertRulesService } from './alert-rules.service';
import { AlertSchedule } from './alert-schedule';
import { AlertsAdminController } from './alerts-admin.controller';
import { EventStoreModule } from '../event-store/event-store.module';
import { ReadModelsModule } from '../read-models/read-models.module';
import { AgentDirectoryModule } from '../agents/agent-directory.module';

@Module({
  imports: [EventStoreModule, ReadModelsModule, AgentDirectoryModule],
  controllers: [AlertRulesController, AlertsAdminController],
  providers: [
    AlertRulesService,
    {
      provide: ApiErrorRecorder,
      inject: [EVENT_STORE, AGENT_DIRECTORY, Clock, LOGGER],
      useFactory: (store: EventStore, agents: AgentDirectory, clock: Clock, logger: Logger) =>
        new ApiErrorRecorder(store, agents, clock, logger),
    },
    AlertSchedule,
    {
      provide: AlertEvaluator,
      inject: [ReadModels, EVENT_STORE, PLATFORM_DB, Clock, LOGGER, Metrics],
      useFactory: (
        readModels: ReadModels,
        store: EventStore,
        platform: DataSource,
        clock: Clock,
        logger: Logger,
        metrics: Metrics,
      ) => new AlertEvaluator(readModels, store, platform, clock, logger, metrics),
    },
  ],
  exports: [ApiErrorRecorder],
})
export class AlertsModule {}
