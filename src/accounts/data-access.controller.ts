import { Body, Controller, Get, Param, Put, Req } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { RequireApiKey } from '../platform/auth/key.guard';
import { requestContext } from '../platform/commands/request-context';
import { parseAccountId, parseAgentId } from '../platform/ids/prefixed-ids';
import { DataAccessService } from './data-access.service';
import { DataAccessDto } from './dto/data-access.dto';

/** Per-project response configuration (contract §4), managed like the rest of the agent's build. */
@Controller('v1/accounts/:accountId/agents/:agentId/data-access')
@RequireApiKey({ permission: 'agents', account: 'accountId', agent: 'agentId', operator: true })
export class DataAccessController {
  constructor(private readonly dataAccess: DataAccessService) {}

  @Get()
  get(@Param('agentId') agentId: string) {
    return this.dataAccess.view(parseAgentId(agentId));
  }

  @Put()
  put(@Param('accountId') accountId: string, @Param('agentId') agentId: string, @Body() body: DataAccessDto, @Req() request: FastifyRequest) {
    return this.dataAccess.configure(parseAccountId(accountId), parseAgentId(agentId), body, requestContext(request));
  }
}
