import { Body, Controller, Get, Param, Put, Req } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { requestContext } from '../platform/http/request-context';
import { RequireApiKey } from '../platform/auth/key.guard';
import { parseAgentId } from '../platform/ids/prefixed-ids';
import { RuntimeSettingsDto } from './dto/runtime-settings.dto';
import { RuntimeSettingsService } from './runtime-settings.service';

/** An agent's runtime settings on a branch, beside its behavior: versioned, merged and deployed with it. */
@Controller('v1/agents/:agentId/branches')
@RequireApiKey({ permission: 'agents', agent: 'agentId' })
export class RuntimeSettingsController {
  constructor(private readonly settings: RuntimeSettingsService) {}

  @Get(':branchId/settings')
  get(@Param('agentId') agentId: string, @Param('branchId') branchId: string) {
    return this.settings.get(parseAgentId(agentId), branchId);
  }

  @Put(':branchId/settings')
  put(
    @Param('agentId') agentId: string,
    @Param('branchId') branchId: string,
    @Body() body: RuntimeSettingsDto,
    @Req() request: FastifyRequest,
  ) {
    return this.settings.put(parseAgentId(agentId), branchId, body, requestContext(request));
  }
}
