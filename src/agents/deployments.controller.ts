import { Body, Controller, Get, HttpCode, Param, Post, Query, Req } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { RequireApiKey } from '../platform/auth/key.guard';
import { requestContext } from '../platform/http/request-context';
import { parseAgentId } from '../platform/ids/prefixed-ids';
import { AgentsService } from './agents.service';
import { DeploymentContent } from './deployment-content';
import { deploymentContentView } from './views';
import { DeploymentsQuery, PromoteDto, RollbackDto } from './dto/agent.dto';

@Controller('v1/agents/:agentId/deployments')
@RequireApiKey({ permission: 'agents', agent: 'agentId' })
export class DeploymentsController {
  constructor(
    private readonly agents: AgentsService,
    private readonly content: DeploymentContent,
  ) {}

  @Get()
  list(@Param('agentId') agentId: string, @Query() query: DeploymentsQuery) {
    return this.agents.deployments(parseAgentId(agentId), query.environment);
  }

  @Get('active')
  active(@Param('agentId') agentId: string) {
    return this.agents.active(parseAgentId(agentId));
  }

  /** The behavior and topics a deployment serves (main at its version), so two can be compared. */
  @Get(':deploymentId/content')
  async served(@Param('agentId') agentId: string, @Param('deploymentId') deploymentId: string) {
    return deploymentContentView(await this.content.ofDeployment(parseAgentId(agentId), deploymentId));
  }

  @Post(':deploymentId/promote')
  @HttpCode(200)
  promote(
    @Param('agentId') agentId: string,
    @Param('deploymentId') deploymentId: string,
    @Body() body: PromoteDto,
    @Req() request: FastifyRequest,
  ) {
    return this.agents.promote(parseAgentId(agentId), deploymentId, body ?? {}, requestContext(request));
  }

  @Post(':deploymentId/rollback')
  @HttpCode(200)
  rollback(
    @Param('agentId') agentId: string,
    @Param('deploymentId') deploymentId: string,
    @Body() body: RollbackDto,
    @Req() request: FastifyRequest,
  ) {
    return this.agents.rollback(parseAgentId(agentId), deploymentId, body ?? {}, requestContext(request));
  }
}
