import { Body, Controller, Delete, Get, HttpCode, Param, Post, Req, UseGuards } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { requestContext } from '../../platform/http/request-context';
import { OperatorGuard } from '../../platform/operator/operator.guard';
import { AddLlmEndpointDto } from './endpoints.dto';
import { LlmEndpoints } from './llm-endpoints';

/** The operator's model endpoints (header x-operator-token): what agents' model settings may name. */
@Controller('admin/v1/llm-endpoints')
@UseGuards(OperatorGuard)
export class LlmEndpointsController {
  constructor(private readonly endpoints: LlmEndpoints) {}

  @Post()
  @HttpCode(201)
  add(@Body() body: AddLlmEndpointDto, @Req() request: FastifyRequest) {
    return this.endpoints.add(body, requestContext(request));
  }

  @Get()
  list() {
    return this.endpoints.list();
  }

  @Delete(':endpointName')
  @HttpCode(204)
  async delete(@Param('endpointName') name: string, @Req() request: FastifyRequest) {
    await this.endpoints.delete(name, requestContext(request));
  }
}
