import { Body, Controller, Get, Param, Put, Req } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { RequireApiKey } from '../platform/auth/key.guard';
import { requestContext } from '../platform/http/request-context';
import { parseAccountId } from '../platform/ids/prefixed-ids';
import { notFound } from '../platform/errors/domain-error';
import { AccountsService } from './accounts.service';
import { DataAccessService } from './data-access.service';
import { DataAccessDto } from './dto/data-access.dto';

/** Per-project response configuration (contract §4), managed like the rest of the agent's build. */
@Controller('v1/accounts/:accountId/agents/:agentId/data-access')
@RequireApiKey({ permission: 'agents', account: 'accountId', agent: 'agentId', operator: true })
export class DataAccessController {
  constructor(
    private readonly dataAccess: DataAccessService,
    private readonly accounts: AccountsService,
  ) {}

  @Get()
  async get(@Param('accountId') accountId: string, @Param('agentId') agentId: string) {
    return this.dataAccess.view(await this.agentIn(accountId, agentId));
  }

  @Put()
  async put(
    @Param('accountId') accountId: string,
    @Param('agentId') agentId: string,
    @Body() body: DataAccessDto,
    @Req() request: FastifyRequest,
  ) {
    return this.dataAccess.configure(
      parseAccountId(accountId),
      await this.agentIn(accountId, agentId),
      body,
      requestContext(request),
    );
  }

  /** The operator skips the key's scoping, so the agent's account is checked here for everyone. */
  private async agentIn(rawAccountId: string, rawAgentId: string): Promise<string> {
    const { agentId, accountId } = await this.accounts.agentOf(rawAgentId);
    if (accountId !== parseAccountId(rawAccountId)) throw notFound('AGENT_NOT_FOUND', 'agent not found');
    return agentId;
  }
}
