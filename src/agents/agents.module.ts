import { Module } from '@nestjs/common';
import { AccountsModule } from '../accounts/accounts.module';
import { EventStoreModule } from '../event-store/event-store.module';
import { ReadModelsModule } from '../read-models/read-models.module';
import { TestRunsModule } from '../agent-tests/test-runs.module';
import { AgentCommands } from './agent-commands';
import { AgentDirectoryModule } from './agent-directory.module';
import { AccountAgentsController, AgentController } from './agents.controller';
import { AgentsService } from './agents.service';
import { BranchesController } from './branches.controller';
import { DeploymentContent } from './deployment-content';
import { DeploymentsController } from './deployments.controller';

@Module({
  imports: [EventStoreModule, ReadModelsModule, AgentDirectoryModule, AccountsModule, TestRunsModule],
  controllers: [AccountAgentsController, AgentController, BranchesController, DeploymentsController],
  providers: [AgentCommands, AgentsService, DeploymentContent],
  exports: [DeploymentContent, AgentsService, AgentCommands],
})
export class AgentsModule {}
