import { Module } from '@nestjs/common';
import { EventStoreModule } from '../../event-store/event-store.module';
import { LlmEndpointsController } from './llm-endpoints.controller';
import { LlmEndpoints } from './llm-endpoints';

/** The operator's model endpoints: the settings routes check names against it, the runtime resolves them. */
@Module({
  imports: [EventStoreModule],
  controllers: [LlmEndpointsController],
  providers: [LlmEndpoints],
  exports: [LlmEndpoints],
})
export class LlmEndpointsModule {}
