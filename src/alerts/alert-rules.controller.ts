import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query, Req } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { keyOf, RequireApiKey } from '../platform/auth/key.guard';
import { requestContext } from '../platform/http/request-context';
import { CreateAlertRuleDto, PatchAlertRuleDto } from './alert-rules.dto';
import { AlertRulesService } from './alert-rules.service';

const accountOf = (request: FastifyRequest) => keyOf(request)!.accountId;
const scopeOf = (request: FastifyRequest) => keyOf(request)!.agents;

/** Alerts API (interface.md, contract §12): the key's account's rules on the agents the key reaches. */
@Controller('v1')
@RequireApiKey({ permission: 'alerts' })
export class AlertRulesController {
  constructor(private readonly rules: AlertRulesService) {}

  @Post('alert-rules')
  @HttpCode(201)
  create(@Body() body: CreateAlertRuleDto, @Req() request: FastifyRequest) {
    return this.rules.create(accountOf(request), scopeOf(request), body, requestContext(request));
  }

  @Get('alert-rules')
  list(@Query() query: Record<string, unknown>, @Req() request: FastifyRequest) {
    return this.rules.list(accountOf(request), scopeOf(request), query);
  }

  @Get('alert-rules/:ruleId')
  get(@Param('ruleId') ruleId: string, @Req() request: FastifyRequest) {
    return this.rules.get(accountOf(request), scopeOf(request), ruleId);
  }

  @Patch('alert-rules/:ruleId')
  patch(@Param('ruleId') ruleId: string, @Body() body: PatchAlertRuleDto, @Req() request: FastifyRequest) {
    return this.rules.patch(accountOf(request), scopeOf(request), ruleId, body, requestContext(request));
  }

  @Delete('alert-rules/:ruleId')
  @HttpCode(204)
  async delete(@Param('ruleId') ruleId: string, @Req() request: FastifyRequest): Promise<void> {
    await this.rules.delete(accountOf(request), scopeOf(request), ruleId, requestContext(request));
  }

  @Get('alerts')
  firing(@Query() query: Record<string, unknown>, @Req() request: FastifyRequest) {
    return this.rules.firing(accountOf(request), scopeOf(request), query);
  }
}
