import { Module } from '@nestjs/common';
import { ReadModelsModule } from '../../read-models/read-models.module';
import { AgentsModule } from '../agents.module';
import { AgentToolsController, ToolSecretController } from './agent-tools.controller';
import { AgentToolsService } from './agent-tools.service';

/** Agent tools (contract §20): the routes that define them on branches and the agent's tool secret. */
@Module({
  imports: [ReadModelsModule, AgentsModule],
  controllers: [AgentToolsController, ToolSecretController],
  providers: [AgentToolsService],
})
export class AgentToolsModule {}
