import { Module } from '@nestjs/common';
import { AGENT_DIRECTORY } from '../platform/auth/agent-directory';
import { ReadModelsModule } from '../read-models/read-models.module';
import { ReadModelAgentDirectory } from './agent-directory';

/**
 * The platform's AgentDirectory over the agents read model. Who owns an agent is the accounts'
 * question (keys, scopes), so it lives here: the key guard and the channels ask it without
 * importing AgentsModule, and agents depend on accounts, never the other way.
 */
@Module({
  imports: [ReadModelsModule],
  providers: [{ provide: AGENT_DIRECTORY, useClass: ReadModelAgentDirectory }],
  exports: [AGENT_DIRECTORY],
})
export class AgentDirectoryModule {}
