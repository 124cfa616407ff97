import { Body, Controller, HttpCode, Post, Req, UseGuards } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { requestContext } from '../platform/http/request-context';
import { AccessTokenGuard, claimsOf, ConnectorTokenGuard, connectorOf } from './messaging-auth.guards';
import { MessagingHttpService } from './messaging-http.service';

/** Routes whose body arrives as text (see MessagingModule): they parse it themselves. */
export const RAW_BODY_ROUTES = new Set(['/api/v1/access-token', '/api/v1/sessions']);

/** The messaging channel's two HTTP calls (interface.md "Messaging channel"). */
@Controller('api/v1')
export class MessagingHttpController {
  constructor(private readonly messaging: MessagingHttpService) {}

  /** X-Token (the connector's token) and X-Host, checked by the guard. */
  @Post('access-token')
  @HttpCode(200)
  @UseGuards(ConnectorTokenGuard)
  accessToken(@Req() request: FastifyRequest) {
    return this.messaging.issueToken(connectorOf(request));
  }

  /** `Authorization: Bearer <access token>`, checked by the guard. */
  @Post('sessions')
  @HttpCode(200)
  @UseGuards(AccessTokenGuard)
  createSession(@Body() body: unknown, @Req() request: FastifyRequest) {
    return this.messaging.createSession(claimsOf(request), body, requestContext(request));
  }
}
