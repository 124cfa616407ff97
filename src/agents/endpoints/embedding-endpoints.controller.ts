import { Body, Controller, Delete, Get, HttpCode, Param, Post, Req, UseGuards } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { requestContext } from '../../platform/http/request-context';
import { OperatorGuard } from '../../platform/operator/operator.guard';
import { AddEmbeddingEndpointDto } from './endpoints.dto';
import { EmbeddingEndpoints } from './embedding-endpoints';

/** The operator's embeddings endpoints (header x-operator-token): what agents' `retrieval` settings may name. */
@Controller('admin/v1/embedding-endpoints')
@UseGuards(OperatorGuard)
export class EmbeddingEndpointsController {
  constructor(private readonly endpoints: EmbeddingEndpoints) {}

  @Post()
  @HttpCode(201)
  add(@Body() body: AddEmbeddingEndpointDto, @Req() request: FastifyRequest) {
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
