import { Body, Controller, Headers, HttpCode, Param, Post, Req } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { keyOf, RequireServiceToken } from '../platform/auth/key.guard';
import { requestContext } from '../platform/http/request-context';
import { OutboundSmsDto } from './sms.dto';
import { inboundContentType } from './sms-raw-body';
import { SmsService } from './sms.service';

/** SMS API (interface.md; contract §11). */
@Controller('v1')
export class SmsController {
  constructor(private readonly sms: SmsService) {}

  /** A key with `sms` in X-Service-Auth-Token and the SMS connector's id in X-TOKEN-ID. */
  @Post('outbound-sms')
  @HttpCode(202)
  @RequireServiceToken({ permission: 'sms' })
  outbound(
    @Body() body: OutboundSmsDto,
    @Headers('x-token-id') connectorId: string | undefined,
    @Req() request: FastifyRequest,
  ) {
    return this.sms.outbound(keyOf(request)!, connectorId?.trim() || undefined, body, requestContext(request));
  }

  /** The carrier's webhook: no key, the body signed with the connector's webhook secret. */
  @Post('sms/inbound/:connectorId')
  @HttpCode(200)
  inbound(
    @Param('connectorId') connectorId: string,
    @Headers('x-signature') signature: string | undefined,
    @Req() request: FastifyRequest,
  ) {
    const raw = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
    return this.sms.inbound(connectorId, inboundContentType(request), raw, signature, {
      actor: `connector:${connectorId}`,
      correlationId: String(request.id),
    });
  }
}
