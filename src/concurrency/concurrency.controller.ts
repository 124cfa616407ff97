import { Controller, Get, Param, Query } from '@nestjs/common';
import { RequireApiKey } from '../platform/auth/key.guard';
import { parseAccountId, parseAgentId } from '../platform/ids/prefixed-ids';
import { parseConcurrencyQuery } from './concurrency-query';
import { ConcurrencyService } from './concurrency.service';

/**
 * Concurrent calls (contract §17). A static segment: it wins over the Conversations API's
 * `/conversations/:conversationId` on the same prefix.
 */
@Controller()
@RequireApiKey({ permission: 'conversations', account: 'accountId', agent: 'projectId' })
export class ConcurrencyController {
  constructor(private readonly concurrency: ConcurrencyService) {}

  @Get('v1/:accountId/:projectId/conversations/concurrency')
  series(
    @Param('accountId') accountId: string,
    @Param('projectId') projectId: string,
    @Query() query: Record<string, unknown>,
  ) {
    return this.concurrency.series(parseAccountId(accountId), parseConcurrencyQuery(parseAgentId(projectId), query));
  }
}
