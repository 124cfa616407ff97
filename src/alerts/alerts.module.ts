import { Module } from '@nestjs/common';
import { AlertEvaluator } from './alert-evaluator';
import { ApiErrorRecorder } from './api-error-recorder';
import { AlertRulesController } from './alert-rules.controller';
import { AlertRulesService } from './alert-rules.service';
import { AlertSchedule } from './alert-schedule';
import { AlertsAdminController } from './alerts-admin.controller';
import { CommandsModule } from '../commands/commands.module';
import { EventStoreModule } from '../event-store/event-store.module';
import { ReadModelsModule } from '../read-models/read-models.module';
import { ProcessManagersModule } from '../process-managers/process-managers.module';
import { AgentDirectoryModule } from '../accounts/agent-directory.module';

@Module({
  imports: [EventStoreModule, CommandsModule, ReadModelsModule, ProcessManagersModule, AgentDirectoryModule],
  controllers: [AlertRulesController, AlertsAdminController],
  providers: [AlertRulesService, ApiErrorRecorder, AlertSchedule, AlertEvaluator],
  exports: [ApiErrorRecorder],
})
export class AlertsModule {}
