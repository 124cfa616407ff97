import { Global, Module } from '@nestjs/common';
import { TestRunsModule } from '../agent-tests/test-runs.module';
import { AGENT_DIRECTORY } from '../platform/auth/agent-directory';
import { ReadModels } from '../read-models/read-models.service';
import { AgentCommands } from './agent-commands';
import { ReadModelAgentDirectory } from './agent-directory';
import { AccountAgentsController, AgentController } from './agents.controller';
import { AgentsService } from './agents.service';
import { BranchesController } from './branches.controller';
import { DeploymentContent } from './deployment-content';
import { DeploymentsController } from './deployments.controller';

@Global()
@Module({
  imports: [TestRunsModule],
  controllers: [AccountAgentsController, AgentController, BranchesController, DeploymentsController],
  providers: [
    AgentCommands,
    AgentsService,
    DeploymentContent,
    {
      provide: AGENT_DIRECTORY,
      inject: [ReadModels],
      useFactory: (readModels: ReadModels) => new ReadModelAgentDirectory(readModels),
    },
  ],
  exports: [AGENT_DIRECTORY, DeploymentContent, AgentsService, AgentCommands],
})
export class AgentsModule {}
