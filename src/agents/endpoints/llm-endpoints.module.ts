import { Module } from '@nestjs/common';
import { CommandsModule } from '../../commands/commands.module';
import { LlmEndpointsController } from './llm-endpoints.controller';
import { LlmEndpoints } from './llm-endpoints';

/** The operator's model endpoints: the settings routes check names against it, the runtime resolves them. */
@Module({
  imports: [CommandsModule],
  controllers: [LlmEndpointsController],
  providers: [LlmEndpoints],
  exports: [LlmEndpoints],
})
export class LlmEndpointsModule {}
