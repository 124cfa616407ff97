import { Module } from '@nestjs/common';
import { EventStoreModule } from '../event-store/event-store.module';
import { ReadModelsModule } from '../read-models/read-models.module';
import { TestRuns } from './test-runs';

/** Starting test runs and the promotion gate: what the Agents API needs of agent tests (AgentsModule imports it). */
@Module({
  imports: [EventStoreModule, ReadModelsModule],
  providers: [TestRuns],
  exports: [TestRuns],
})
export class TestRunsModule {}
