import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Req } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { RequireApiKey } from '../platform/auth/key.guard';
import { requestContext } from '../platform/http/request-context';
import { parseAgentId } from '../platform/ids/prefixed-ids';
import { AgentTestsService } from './agent-tests.service';
import { CreateTestCaseDto, PatchTestCaseDto } from './dto/test-case.dto';

/** Test cases on a branch (contract §19); writes to `main` answer 422, like topics. */
@Controller('v1/agents/:agentId/branches/:branchId/tests')
@RequireApiKey({ permission: 'agents', agent: 'agentId' })
export class AgentTestsController {
  constructor(private readonly tests: AgentTestsService) {}

  @Get()
  list(@Param('agentId') agentId: string, @Param('branchId') branchId: string) {
    return this.tests.list(parseAgentId(agentId), branchId);
  }

  @Post()
  @HttpCode(201)
  add(
    @Param('agentId') agentId: string,
    @Param('branchId') branchId: string,
    @Body() body: CreateTestCaseDto,
    @Req() request: FastifyRequest,
  ) {
    return this.tests.add(parseAgentId(agentId), branchId, body, requestContext(request));
  }

  @Get(':testId')
  get(@Param('agentId') agentId: string, @Param('branchId') branchId: string, @Param('testId') testId: string) {
    return this.tests.get(parseAgentId(agentId), branchId, testId);
  }

  @Patch(':testId')
  @HttpCode(204)
  async edit(
    @Param('agentId') agentId: string,
    @Param('branchId') branchId: string,
    @Param('testId') testId: string,
    @Body() body: PatchTestCaseDto,
    @Req() request: FastifyRequest,
  ) {
    await this.tests.edit(parseAgentId(agentId), branchId, testId, body, requestContext(request));
  }

  @Delete(':testId')
  @HttpCode(204)
  async remove(
    @Param('agentId') agentId: string,
    @Param('branchId') branchId: string,
    @Param('testId') testId: string,
    @Req() request: FastifyRequest,
  ) {
    await this.tests.remove(parseAgentId(agentId), branchId, testId, requestContext(request));
  }
}
