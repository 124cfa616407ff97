import { Controller, Delete, HttpCode, Param, Req } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { RequireApiKey } from '../platform/auth/key.guard';
import { requestContext } from '../platform/http/request-context';
import { parseAgentId } from '../platform/ids/prefixed-ids';
import { PersonalDataService } from './personal-data.service';

/** Erasure of a conversation's personal data (contract §24): the `conversations` permission outright. */
@Controller('v3/:accountId/:projectId/conversations/:conversationId/personal-data')
@RequireApiKey({ permission: 'conversations', account: 'accountId', agent: 'projectId' })
export class PersonalDataController {
  constructor(private readonly personalData: PersonalDataService) {}

  @Delete()
  @HttpCode(204)
  async erase(
    @Param('projectId') projectId: string,
    @Param('conversationId') conversationId: string,
    @Req() request: FastifyRequest,
  ): Promise<void> {
    await this.personalData.erase(parseAgentId(projectId), conversationId, requestContext(request));
  }
}
