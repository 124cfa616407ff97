import { Controller, Get, Param, Query } from '@nestjs/common';
import { RequireApiKey } from '../platform/auth/key.guard';
import { parseAgentId } from '../platform/ids/prefixed-ids';
import { TestRunsQuery } from './dto/test-case.dto';
import { TestRunsService } from './test-runs.service';

@Controller('v1/agents/:agentId/test-runs')
@RequireApiKey({ permission: 'agents', agent: 'agentId' })
export class TestRunsController {
  constructor(private readonly runs: TestRunsService) {}

  /** Newest first, at most 100; `deploymentId` keeps one deployment's runs. */
  @Get()
  list(@Param('agentId') agentId: string, @Query() query: TestRunsQuery) {
    return this.runs.list(parseAgentId(agentId), query.deploymentId);
  }

  @Get(':testRunId')
  get(@Param('agentId') agentId: string, @Param('testRunId') testRunId: string) {
    return this.runs.get(parseAgentId(agentId), testRunId);
  }
}
