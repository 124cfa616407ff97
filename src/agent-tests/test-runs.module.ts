import { Module } from '@nestjs/common';
import { CommandsModule } from '../commands/commands.module';
import { ReadModelsModule } from '../read-models/read-models.module';
import { TEST_RUN_COMMANDS, testRunCommands } from './test-run-commands';
import { TestRuns } from './test-runs';

/**
 * Starting test runs and the promotion gate: what the Agents API needs of agent tests (AgentsModule
 * imports it); and the handler of test run streams, which the runner behind the log shares.
 */
@Module({
  imports: [CommandsModule, ReadModelsModule],
  providers: [testRunCommands, TestRuns],
  exports: [TestRuns, TEST_RUN_COMMANDS],
})
export class TestRunsModule {}
