import { Module } from '@nestjs/common';
import { CommandsModule } from '../../commands/commands.module';
import { EmbeddingEndpointsController } from './embedding-endpoints.controller';
import { EmbeddingEndpoints } from './embedding-endpoints';
import { LlmEndpointsController } from './llm-endpoints.controller';
import { LlmEndpoints } from './llm-endpoints';

/**
 * The operator's endpoints, model and embeddings: the settings routes check names against them,
 * the runtime resolves them.
 */
@Module({
  imports: [CommandsModule],
  controllers: [LlmEndpointsController, EmbeddingEndpointsController],
  providers: [LlmEndpoints, EmbeddingEndpoints],
  exports: [LlmEndpoints, EmbeddingEndpoints],
})
export class EndpointsModule {}
