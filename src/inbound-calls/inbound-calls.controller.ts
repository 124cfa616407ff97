import { Body, Controller, Get, HttpCode, Param, Post, Req, UseGuards } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { requestContext } from '../platform/http/request-context';
import { OperatorGuard } from '../platform/operator/operator.guard';
import { SimulateInboundCallDto } from './inbound-call.dto';
import { InboundCallsService } from './inbound-calls.service';

/** The embedded carrier's simulated inbound calls (contract §18): operator routes. */
@Controller('admin/v1/carrier/inbound-calls')
@UseGuards(OperatorGuard)
export class InboundCallsController {
  constructor(private readonly calls: InboundCallsService) {}

  @Post()
  @HttpCode(201)
  receive(@Body() body: SimulateInboundCallDto, @Req() request: FastifyRequest) {
    return this.calls.receive(body, requestContext(request));
  }

  @Get(':callSid')
  status(@Param('callSid') callSid: string) {
    return this.calls.status(callSid);
  }

  @Post(':callSid/hang-up')
  @HttpCode(200)
  hangUp(@Param('callSid') callSid: string, @Req() request: FastifyRequest) {
    return this.calls.hangUp(callSid, requestContext(request));
  }
}
