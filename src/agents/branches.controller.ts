import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Req } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { RequireApiKey } from '../platform/auth/key.guard';
import { requestContext } from '../platform/http/request-context';
import { parseAgentId } from '../platform/ids/prefixed-ids';
import { AgentsService } from './agents.service';
import { BehaviorDto, CreateBranchDto, CreateTopicDto, MergeDto, PatchTopicDto } from './dto/agent.dto';

@Controller('v1/agents/:agentId/branches')
@RequireApiKey({ permission: 'agents', agent: 'agentId' })
export class BranchesController {
  constructor(private readonly agents: AgentsService) {}

  @Get()
  list(@Param('agentId') agentId: string) {
    return this.agents.listBranches(parseAgentId(agentId));
  }

  @Post()
  @HttpCode(201)
  create(@Param('agentId') agentId: string, @Body() body: CreateBranchDto, @Req() request: FastifyRequest) {
    return this.agents.createBranch(parseAgentId(agentId), body.branchName, requestContext(request));
  }

  @Delete(':branchId')
  @HttpCode(204)
  async delete(@Param('agentId') agentId: string, @Param('branchId') branchId: string, @Req() request: FastifyRequest) {
    await this.agents.deleteBranch(parseAgentId(agentId), branchId, requestContext(request));
  }

  @Get(':branchId/behavior')
  behavior(@Param('agentId') agentId: string, @Param('branchId') branchId: string) {
    return this.agents.behavior(parseAgentId(agentId), branchId);
  }

  @Patch(':branchId/behavior')
  editBehavior(
    @Param('agentId') agentId: string,
    @Param('branchId') branchId: string,
    @Body() body: BehaviorDto,
    @Req() request: FastifyRequest,
  ) {
    return this.agents.editBehavior(parseAgentId(agentId), branchId, body, requestContext(request));
  }

  @Get(':branchId/knowledge-base/topics')
  topics(@Param('agentId') agentId: string, @Param('branchId') branchId: string) {
    return this.agents.topics(parseAgentId(agentId), branchId);
  }

  @Post(':branchId/knowledge-base/topics')
  @HttpCode(201)
  addTopic(
    @Param('agentId') agentId: string,
    @Param('branchId') branchId: string,
    @Body() body: CreateTopicDto,
    @Req() request: FastifyRequest,
  ) {
    return this.agents.addTopic(parseAgentId(agentId), branchId, body, requestContext(request));
  }

  @Patch(':branchId/knowledge-base/topics/:topicId')
  @HttpCode(204)
  async editTopic(
    @Param('agentId') agentId: string,
    @Param('branchId') branchId: string,
    @Param('topicId') topicId: string,
    @Body() body: PatchTopicDto,
    @Req() request: FastifyRequest,
  ) {
    await this.agents.editTopic(parseAgentId(agentId), branchId, topicId, body, requestContext(request));
  }

  @Delete(':branchId/knowledge-base/topics/:topicId')
  @HttpCode(204)
  async removeTopic(
    @Param('agentId') agentId: string,
    @Param('branchId') branchId: string,
    @Param('topicId') topicId: string,
    @Req() request: FastifyRequest,
  ) {
    await this.agents.removeTopic(parseAgentId(agentId), branchId, topicId, requestContext(request));
  }

  @Post(':branchId/merge')
  @HttpCode(200)
  merge(
    @Param('agentId') agentId: string,
    @Param('branchId') branchId: string,
    @Body() body: MergeDto,
    @Req() request: FastifyRequest,
  ) {
    return this.agents.merge(parseAgentId(agentId), branchId, body, requestContext(request));
  }
}
