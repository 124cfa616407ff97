import { Body, Controller, Get, HttpCode, Param, Put, Req, UseGuards } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { RequireApiKey } from '../platform/auth/key.guard';
import { requestContext } from '../platform/http/request-context';
import { parseAccountId } from '../platform/ids/prefixed-ids';
import { OperatorGuard } from '../platform/operator/operator.guard';
import { CallLines } from './call-lines';
import { SetLimitsDto } from './dto/limits.dto';

/** The account limit (contract §17): the operator sets it; any key of the account reads it. */
@Controller()
export class CallLimitsController {
  constructor(private readonly lines: CallLines) {}

  @Put('admin/v1/accounts/:accountId/limits')
  @UseGuards(OperatorGuard)
  @HttpCode(200)
  set(@Param('accountId') accountId: string, @Body() body: SetLimitsDto, @Req() request: FastifyRequest) {
    return this.lines.setLimit(parseAccountId(accountId), body.concurrent_calls, requestContext(request));
  }

  @Get('v1/accounts/:accountId/limits')
  @RequireApiKey({ permission: null, account: 'accountId', operator: true })
  get(@Param('accountId') accountId: string) {
    return this.lines.limits(parseAccountId(accountId));
  }
}
