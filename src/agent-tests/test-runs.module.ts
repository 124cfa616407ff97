import { Global, Module } from '@nestjs/common';
import { TEST_GATE } from '../agents/test-gate';
import { CommandsModule } from '../commands/commands.module';
import { ReadModelsModule } from '../read-models/read-models.module';
import { TEST_RUN_COMMANDS, testRunCommands } from './test-run-commands';
import { TestRuns } from './test-runs';

/**
 * Starting test runs and the promotion gate: what the Agents API needs of agent tests, bound to
 * agents' TEST_GATE port; and the handler of test run streams, which the runner behind the log
 * shares. Global, imported by the composition root: agents uses the port without importing agent
 * tests, which depend on agents.
 */
@Global()
@Module({
  imports: [CommandsModule, ReadModelsModule],
  providers: [testRunCommands, TestRuns, { provide: TEST_GATE, useExisting: TestRuns }],
  exports: [TestRuns, TEST_RUN_COMMANDS, TEST_GATE],
})
export class TestRunsModule {}
