import { Body, Controller, Get, HttpCode, Param, Post, Req } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { keyOf, RequireServiceToken } from '../platform/auth/key.guard';
import { requestContext } from '../platform/http/request-context';
import { PlaceOutboundCallDto } from './outbound-call.dto';
import { OutboundCallsService } from './outbound-calls.service';

/** Outbound Calling API (interface.md; contract §10): the operator-issued token in X-Service-Auth-Token. */
@Controller('v1/outbound-calling')
@RequireServiceToken({ permission: 'outbound_calling' })
export class OutboundCallsController {
  constructor(private readonly calls: OutboundCallsService) {}

  @Post()
  @HttpCode(200)
  place(@Body() body: PlaceOutboundCallDto, @Req() request: FastifyRequest) {
    return this.calls.place(keyOf(request)!, body, requestContext(request));
  }

  @Get(':callSid/status')
  status(@Param('callSid') callSid: string, @Req() request: FastifyRequest) {
    return this.calls.status(keyOf(request)!, callSid);
  }
}
