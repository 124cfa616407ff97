import { ProcessManagersModule } from '../process-managers/process-managers.module';
import { Module } from '@nestjs/common';
import type { Logger } from 'pino';
import { AgentsModule } from '../agents/agents.module';
import { ConversationsModule } from '../conversations/conversations.module';
import { ConversationEngine } from '../conversations/engine/conversation-engine';
import { Clock } from '../platform/clock/clock';
import { CONFIG, type Config } from '../platform/config/config';
import { IdGenerator } from '../platform/ids/ids';
import { LOGGER } from '../platform/logging/logger';
import { ReadModelsModule } from '../read-models/read-models.module';
import { AgentTestsController } from './agent-tests.controller';
import { AgentTestsService } from './agent-tests.service';
import { TestRunner } from './test-runner';
import { TEST_RUN_COMMANDS, type TestRunCommands } from './test-run-commands';
import { TestRunsController } from './test-runs.controller';
import { TestRunsModule } from './test-runs.module';
import { TestRunsService } from './test-runs.service';

/** Agent tests (contract §19): test cases on branches, test runs and the runner behind the log. */
@Module({
  imports: [ProcessManagersModule, TestRunsModule, ReadModelsModule, ConversationsModule, AgentsModule],
  controllers: [AgentTestsController, TestRunsController],
  providers: [
    AgentTestsService,
    TestRunsService,
    {
      provide: TestRunner,
      inject: [TEST_RUN_COMMANDS, Clock, ConversationEngine, IdGenerator, LOGGER, CONFIG],
      // built from the configuration: TEST_RUN_CASE_PAUSE_MS
      useFactory: (
        runs: TestRunCommands,
        clock: Clock,
        engine: ConversationEngine,
        ids: IdGenerator,
        logger: Logger,
        config: Config,
      ) =>
        new TestRunner({
          runs,
          clock,
          engine,
          newId: () => ids.uuid(),
          logger,
          casePauseMs: config.testRunCasePauseMs,
        }),
    },
  ],
})
export class AgentTestsModule {}
