import { Body, Controller, Headers, HttpCode, Post, Req } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { requestContext } from '../platform/commands/request-context';
import { MessagingHttpService } from './messaging-http.service';

/** Routes whose body arrives as text (see MessagingModule): they parse it themselves. */
export const RAW_BODY_ROUTES = new Set(['/api/v1/access-token', '/api/v1/sessions']);

/** The messaging channel's two HTTP calls (interface.md "Messaging channel"). */
@Controller('api/v1')
export class MessagingHttpController {
  constructor(private readonly messaging: MessagingHttpService) {}

  @Post('access-token')
  @HttpCode(200)
  accessToken(@Headers('x-token') token: string | undefined, @Headers('x-host') host: string | undefined) {
    return this.messaging.issueToken(token, host);
  }

  @Post('sessions')
  @HttpCode(200)
  createSession(@Headers('authorization') authorization: string | undefined, @Body() body: unknown, @Req() request: FastifyRequest) {
    return this.messaging.createSession(authorization, body, requestContext(request));
  }
}
