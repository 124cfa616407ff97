import { Body, Controller, Delete, Get, HttpCode, Param, Post, Req } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { keyOf, RequireApiKey } from '../platform/auth/key.guard';
import { keyCanReachAgent } from '../platform/auth/key-principal';
import { forbidden } from '../platform/errors/domain-error';
import { requestContext } from '../platform/http/request-context';
import { parseAccountId, parseAgentId } from '../platform/ids/prefixed-ids';
import { AgentsService } from './agents.service';
import { CreateAgentDto } from './dto/agent.dto';

@Controller('v1/accounts/:accountId/agents')
@RequireApiKey({ permission: 'agents', account: 'accountId' })
export class AccountAgentsController {
  constructor(private readonly agents: AgentsService) {}

  /** interface.md: 200 with the agent. A key scoped to some agents could not reach a new one: 403. */
  @Post()
  @HttpCode(200)
  create(@Param('accountId') accountId: string, @Body() body: CreateAgentDto, @Req() request: FastifyRequest) {
    if (keyOf(request)?.agents !== 'all')
      throw forbidden('a key scoped to specific agents cannot create agents', 'AGENT_FORBIDDEN');
    return this.agents.create(parseAccountId(accountId), body, requestContext(request));
  }

  /** The account's agents this key can reach. */
  @Get()
  async list(@Param('accountId') accountId: string, @Req() request: FastifyRequest) {
    const key = keyOf(request)!;
    const agents = await this.agents.list(parseAccountId(accountId));
    return key.agents === 'all' ? agents : agents.filter((a) => keyCanReachAgent(key, parseAgentId(a.agentId)));
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
