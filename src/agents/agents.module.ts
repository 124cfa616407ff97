import { Module } from '@nestjs/common';
import { AccountsModule } from '../accounts/accounts.module';
import { CommandsModule } from '../commands/commands.module';
import { ReadModelsModule } from '../read-models/read-models.module';
import { AgentCommands } from './agent-commands';
import { AgentDirectoryModule } from '../accounts/agent-directory.module';
import { AccountAgentsController, AgentController } from './agents.controller';
import { AgentsService } from './agents.service';
import { BranchesController } from './branches.controller';
import { DeploymentContent } from './deployment-content';
import { DeploymentsController } from './deployments.controller';
import { DraftContent } from './draft-content';
import { EndpointsModule } from './endpoints/endpoints.module';
import { RuntimeSettingsController } from './runtime-settings.controller';
import { RuntimeSettingsService } from './runtime-settings.service';

@Module({
  imports: [
    CommandsModule,
    ReadModelsModule,
    AgentDirectoryModule,
    AccountsModule,
    // runtime settings: the model endpoints their names refer to
    EndpointsModule,
  ],
  controllers: [
    AccountAgentsController,
    AgentController,
    BranchesController,
    DeploymentsController,
    RuntimeSettingsController,
  ],
  providers: [AgentCommands, AgentsService, DeploymentContent, DraftContent, RuntimeSettingsService],
  exports: [DeploymentContent, DraftContent, AgentsService, AgentCommands],
})
export class AgentsModule {}
