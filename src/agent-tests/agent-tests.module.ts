import { ProcessManagersModule } from '../process-managers/process-managers.module';
import { Inject, Injectable, Module, type OnModuleInit } from '@nestjs/common';
import type { Logger } from 'pino';
import { AgentsModule } from '../agents/agents.module';
import { ConversationsModule } from '../conversations/conversations.module';
import { ConversationEngine } from '../conversations/engine/conversation-engine';
import { Clock } from '../platform/clock/clock';
import { CONFIG, type Config } from '../platform/config/config';
import { IdGenerator } from '../platform/ids/ids';
import { LOGGER } from '../platform/logging/logger';
import { ProcessManagers } from '../process-managers/process-managers';
import { ReadModelsModule } from '../read-models/read-models.module';
import { AgentTestsController } from './agent-tests.controller';
import { AgentTestsService } from './agent-tests.service';
import { TestRunner } from './test-runner';
import { TEST_RUN_COMMANDS, type TestRunCommands } from './test-run-commands';
import { TestRunsController } from './test-runs.controller';
import { TestRunsModule } from './test-runs.module';
import { TestRunsService } from './test-runs.service';

/** Registers the test runner with the process managers at start. */
@Injectable()
class TestRunnerLifecycle implements OnModuleInit {
  constructor(
    private readonly processManagers: ProcessManagers,
    private readonly engine: ConversationEngine,
    private readonly clock: Clock,
    private readonly ids: IdGenerator,
    @Inject(TEST_RUN_COMMANDS) private readonly runs: TestRunCommands,
    @Inject(CONFIG) private readonly config: Config,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  onModuleInit() {
    const runner = new TestRunner({
      runs: this.runs,
      clock: this.clock,
      engine: this.engine,
      newId: () => this.ids.uuid(),
      logger: this.logger,
      casePauseMs: this.config.testRunCasePauseMs,
    });
    this.processManagers.register(runner.processManager());
  }
}

/** Agent tests (contract §19): test cases on branches, test runs and the runner behind the log. */
@Module({
  imports: [ProcessManagersModule, TestRunsModule, ReadModelsModule, ConversationsModule, AgentsModule],
  controllers: [AgentTestsController, TestRunsController],
  providers: [AgentTestsService, TestRunsService, TestRunnerLifecycle],
})
export class AgentTestsModule {}
