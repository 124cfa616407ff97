import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Req } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { keyOf, RequireApiKey } from '../platform/auth/key.guard';
import { principalOf } from '../platform/auth/principal';
import { requestContext } from '../platform/http/request-context';
import { parseAccountId } from '../platform/ids/prefixed-ids';
import { ApiKeysService } from './api-keys.service';
import { CreateApiKeyDto, PatchApiKeyDto } from './dto/api-key.dto';

/** Contract §4: a key with `keys`, or the operator, manages the account's keys. */
@Controller('v1/accounts/:accountId/api-keys')
@RequireApiKey({ permission: 'keys', account: 'accountId', operator: true })
export class ApiKeysController {
  constructor(private readonly keys: ApiKeysService) {}

  @Post()
  @HttpCode(201)
  create(@Param('accountId') accountId: string, @Body() body: CreateApiKeyDto, @Req() request: FastifyRequest) {
    return this.keys.create(
      parseAccountId(accountId),
      body,
      principalOf(request)!,
      keyOf(request),
      requestContext(request),
    );
  }

  @Get()
  list(@Param('accountId') accountId: string) {
    return this.keys.list(parseAccountId(accountId));
  }

  @Get(':keyId')
  get(@Param('accountId') accountId: string, @Param('keyId') keyId: string) {
    return this.keys.get(parseAccountId(accountId), keyId);
  }

  @Patch(':keyId')
  patch(
    @Param('accountId') accountId: string,
    @Param('keyId') keyId: string,
    @Body() body: PatchApiKeyDto,
    @Req() request: FastifyRequest,
  ) {
    return this.keys.patch(parseAccountId(accountId), keyId, body, keyOf(request), requestContext(request));
  }

  @Delete(':keyId')
  @HttpCode(204)
  async delete(@Param('accountId') accountId: string, @Param('keyId') keyId: string, @Req() request: FastifyRequest) {
    await this.keys.delete(parseAccountId(accountId), keyId, keyOf(request), requestContext(request));
  }
}

/** The calling key itself: lets an integrator check a key's scope and expiry without the `keys` permission. */
@Controller('v1/api-keys/self')
@RequireApiKey({ permission: null })
export class ApiKeySelfController {
  constructor(private readonly keys: ApiKeysService) {}

  @Get()
  self(@Req() request: FastifyRequest) {
    const key = keyOf(request)!;
    return this.keys.describe(key);
  }
}
