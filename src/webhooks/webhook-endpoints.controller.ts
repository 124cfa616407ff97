import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query, Req } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { keyOf, RequireApiKey } from '../platform/auth/key.guard';
import { requestContext } from '../platform/http/request-context';
import { CreateWebhookEndpointDto, PatchWebhookEndpointDto } from './dto/webhook-endpoint.dto';
import { WebhookEndpointsService } from './webhook-endpoints.service';

const accountOf = (request: FastifyRequest) => keyOf(request)!.accountId;

/**
 * Contract §13: the key's account's webhook endpoints; keys need `alerts` (contract §4) and, since
 * an endpoint hears every agent's events, a scope of all agents.
 */
@Controller('v1/webhook-endpoints')
@RequireApiKey({ permission: 'alerts', allAgents: true })
export class WebhookEndpointsController {
  constructor(private readonly endpoints: WebhookEndpointsService) {}

  @Get()
  list(@Req() request: FastifyRequest) {
    return this.endpoints.list(accountOf(request));
  }

  @Post()
  @HttpCode(201)
  create(@Body() body: CreateWebhookEndpointDto, @Req() request: FastifyRequest) {
    return this.endpoints.create(accountOf(request), body, requestContext(request));
  }

  @Get(':endpointId')
  get(@Param('endpointId') endpointId: string, @Req() request: FastifyRequest) {
    return this.endpoints.get(accountOf(request), endpointId);
  }

  @Patch(':endpointId')
  patch(
    @Param('endpointId') endpointId: string,
    @Body() body: PatchWebhookEndpointDto,
    @Req() request: FastifyRequest,
  ) {
    return this.endpoints.patch(accountOf(request), endpointId, body, requestContext(request));
  }

  @Delete(':endpointId')
  @HttpCode(204)
  async delete(@Param('endpointId') endpointId: string, @Req() request: FastifyRequest): Promise<void> {
    await this.endpoints.delete(accountOf(request), endpointId, requestContext(request));
  }

  @Post(':endpointId/rotate-secret')
  @HttpCode(200)
  rotateSecret(@Param('endpointId') endpointId: string, @Req() request: FastifyRequest) {
    return this.endpoints.rotateSecret(accountOf(request), endpointId, requestContext(request));
  }

  @Get(':endpointId/deliveries')
  deliveries(
    @Param('endpointId') endpointId: string,
    @Query() query: Record<string, unknown>,
    @Req() request: FastifyRequest,
  ) {
    return this.endpoints.deliveries(accountOf(request), endpointId, query);
  }
}
