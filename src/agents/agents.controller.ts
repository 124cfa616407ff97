import { Body, Controller, Delete, Get, HttpCode, Param, Post, Req } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { RequireApiKey } from '../platform/auth/key.guard';
import { requestContext } from '../platform/commands/request-context';
import { parseAccountId, parseAgentId } from '../platform/ids/prefixed-ids';
import { AgentsService } from './agents.service';
import { CreateAgentDto } from './dto/agent.dto';

@Controller('v1/accounts/:accountId/agents')
@RequireApiKey({ permission: 'agents', account: 'accountId' })
export class AccountAgentsController {
  constructor(private readonly agents: AgentsService) {}

  /** interface.md: 200 with the agent. */
  @Post()
  @HttpCode(200)
  create(@Param('accountId') accountId: string, @Body() body: CreateAgentDto, @Req() request: FastifyRequest) {
    return this.agents.create(parseAccountId(accountId), body, requestContext(request));
  }

  @Get()
  list(@Param('accountId') accountId: string) {
    return this.agents.list(parseAccountId(accountId));
  }
}

@Controller('v1/agents/:agentId')
@RequireApiKey({ permission: 'agents', agent: 'agentId' })
export class AgentController {
  constructor(private readonly agents: AgentsService) {}

  @Get()
  get(@Param('agentId') agentId: string) {
    return this.agents.get(parseAgentId(agentId));
  }

  /** The agent answers 404 everywhere afterwards; its history stays in the log. */
  @Delete()
  @HttpCode(204)
  async delete(@Param('agentId') agentId: string, @Req() request: FastifyRequest) {
    await this.agents.delete(parseAgentId(agentId), requestContext(request));
  }
}
