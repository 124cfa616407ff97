import { Body, Controller, Get, HttpCode, Param, Post, Put, Req, UseGuards } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { principalOf } from '../platform/auth/principal';
import { requestContext } from '../platform/http/request-context';
import { parseAccountId } from '../platform/ids/prefixed-ids';
import { OperatorGuard } from '../platform/operator/operator.guard';
import { AccountsService } from './accounts.service';
import { ApiKeysService } from './api-keys.service';
import { AgentSettingsDto, CreateAccountDto, CreateConnectorDto, ProvisionPhoneNumberDto } from './dto/account.dto';
import { CreateApiKeyDto } from './dto/api-key.dto';

/** The operator API of contract §3 (header x-operator-token). */
@Controller('admin/v1')
@UseGuards(OperatorGuard)
export class AdminController {
  constructor(
    private readonly accounts: AccountsService,
    private readonly keys: ApiKeysService,
  ) {}

  @Post('accounts')
  @HttpCode(201)
  createAccount(@Body() body: CreateAccountDto, @Req() request: FastifyRequest) {
    return this.accounts.create(body, requestContext(request));
  }

  @Get('accounts')
  async listAccounts() {
    return { accounts: await this.accounts.list() };
  }

  @Post('accounts/:accountId/api-keys')
  @HttpCode(201)
  createKey(@Param('accountId') accountId: string, @Body() body: CreateApiKeyDto, @Req() request: FastifyRequest) {
    return this.keys.create(parseAccountId(accountId), body, principalOf(request)!, undefined, requestContext(request));
  }

  @Post('accounts/:accountId/connectors')
  @HttpCode(201)
  createConnector(
    @Param('accountId') accountId: string,
    @Body() body: CreateConnectorDto,
    @Req() request: FastifyRequest,
  ) {
    return this.accounts.createConnector(parseAccountId(accountId), body, requestContext(request));
  }

  @Get('accounts/:accountId/connectors')
  listConnectors(@Param('accountId') accountId: string) {
    return this.accounts.listConnectors(parseAccountId(accountId));
  }

  @Get('agents/:agentId/phone-numbers')
  listNumbers(@Param('agentId') agentId: string) {
    return this.accounts.listNumbers(agentId);
  }

  @Post('agents/:agentId/phone-numbers')
  @HttpCode(201)
  provisionNumber(
    @Param('agentId') agentId: string,
    @Body() body: ProvisionPhoneNumberDto,
    @Req() request: FastifyRequest,
  ) {
    return this.accounts.provisionNumber(agentId, body, requestContext(request));
  }

  @Put('agents/:agentId/settings')
  @HttpCode(200)
  changeSettings(@Param('agentId') agentId: string, @Body() body: AgentSettingsDto, @Req() request: FastifyRequest) {
    return this.accounts.changeSettings(agentId, body, requestContext(request));
  }
}
