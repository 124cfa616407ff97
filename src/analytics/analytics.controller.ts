import { Controller, Get, Param, Query } from '@nestjs/common';
import { RequireApiKey } from '../platform/auth/key.guard';
import { parseAgentId } from '../platform/ids/prefixed-ids';
import { AnalyticsService } from './analytics.service';

/** Analytics API (contract §23): a project's figures over time, for a key with `conversations`. */
@Controller('v1/:accountId/:projectId/analytics')
@RequireApiKey({ permission: 'conversations', account: 'accountId', agent: 'projectId' })
export class AnalyticsController {
  constructor(private readonly analytics: AnalyticsService) {}

  @Get()
  series(
    @Param('accountId') accountId: string,
    @Param('projectId') projectId: string,
    @Query() query: Record<string, unknown>,
  ) {
    return this.analytics.series(accountId, parseAgentId(projectId), query);
  }
}
