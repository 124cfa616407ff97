import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Req } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { requestContext } from '../../platform/http/request-context';
import { RequireApiKey } from '../../platform/auth/key.guard';
import { parseAgentId } from '../../platform/ids/prefixed-ids';
import { AgentToolsService } from './agent-tools.service';
import { CreateToolDto, PatchToolDto } from './tool.dto';

/** Tools on a branch (contract §20); writes to `main` answer 422, like topics. */
@Controller('v1/agents/:agentId/branches/:branchId/tools')
@RequireApiKey({ permission: 'agents', agent: 'agentId' })
export class AgentToolsController {
  constructor(private readonly tools: AgentToolsService) {}

  @Get()
  list(@Param('agentId') agentId: string, @Param('branchId') branchId: string) {
    return this.tools.list(parseAgentId(agentId), branchId);
  }

  @Post()
  @HttpCode(201)
  add(
    @Param('agentId') agentId: string,
    @Param('branchId') branchId: string,
    @Body() body: CreateToolDto,
    @Req() request: FastifyRequest,
  ) {
    return this.tools.add(parseAgentId(agentId), branchId, body, requestContext(request));
  }

  @Get(':toolId')
  get(@Param('agentId') agentId: string, @Param('branchId') branchId: string, @Param('toolId') toolId: string) {
    return this.tools.get(parseAgentId(agentId), branchId, toolId);
  }

  @Patch(':toolId')
  @HttpCode(204)
  async edit(
    @Param('agentId') agentId: string,
    @Param('branchId') branchId: string,
    @Param('toolId') toolId: string,
    @Body() body: PatchToolDto,
    @Req() request: FastifyRequest,
  ) {
    await this.tools.edit(parseAgentId(agentId), branchId, toolId, body, requestContext(request));
  }

  @Delete(':toolId')
  @HttpCode(204)
  async remove(
    @Param('agentId') agentId: string,
    @Param('branchId') branchId: string,
    @Param('toolId') toolId: string,
    @Req() request: FastifyRequest,
  ) {
    await this.tools.remove(parseAgentId(agentId), branchId, toolId, requestContext(request));
  }
}

/** The agent's tool secret, which signs every tool call (contract §20), like a webhook endpoint's signing secret. */
@Controller('v1/agents/:agentId')
@RequireApiKey({ permission: 'agents', agent: 'agentId' })
export class ToolSecretController {
  constructor(private readonly tools: AgentToolsService) {}

  @Get('tool-secret')
  get(@Param('agentId') agentId: string) {
    return this.tools.secretOf(parseAgentId(agentId));
  }

  @Post('rotate-tool-secret')
  @HttpCode(200)
  rotate(@Param('agentId') agentId: string, @Req() request: FastifyRequest) {
    return this.tools.rotateSecret(parseAgentId(agentId), requestContext(request));
  }
}
