import { Module } from '@nestjs/common';
import { AGENT_DIRECTORY } from '../platform/auth/agent-directory';
import { ReadModelsModule } from '../read-models/read-models.module';
import { ReadModelAgentDirectory } from './agent-directory';

/**
 * The platform's AgentDirectory over the agents read model, on its own so that accounts, the key
 * guard and the channels can ask who owns an agent without importing all of AgentsModule (which
 * itself imports AccountsModule).
 */
@Module({
  imports: [ReadModelsModule],
  providers: [{ provide: AGENT_DIRECTORY, useClass: ReadModelAgentDirectory }],
  exports: [AGENT_DIRECTORY],
})
export class AgentDirectoryModule {}
