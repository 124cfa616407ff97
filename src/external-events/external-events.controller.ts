import { Body, Controller, HttpCode, Post, Query, Req } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { RequireApiKey } from '../platform/auth/key.guard';
import { requestContext } from '../platform/http/request-context';
import { ExternalEventsService } from './external-events.service';
import { deliveredContentType } from './raw-body';
import { parseWebhookQuery } from './webhook-query';

const queryParam = (name: string) => (request: FastifyRequest) => {
  const value = (request.query as Record<string, unknown> | undefined)?.[name];
  return Array.isArray(value) ? value[0] : value;
};

/** interface.md "External Events API": a dedicated key with `external_events` for the project. */
@Controller('v1/external-events')
export class ExternalEventsController {
  constructor(private readonly events: ExternalEventsService) {}

  @Post('webhook')
  @HttpCode(201)
  @RequireApiKey({ permission: 'external_events', account: queryParam('account_id'), agent: queryParam('project_id') })
  deliver(@Query() query: Record<string, unknown>, @Body() body: unknown, @Req() request: FastifyRequest) {
    return this.events.deliver(
      {
        query: parseWebhookQuery(query),
        rawQuery: query,
        headers: request.headers,
        contentType: deliveredContentType(request),
        body: Buffer.isBuffer(body) ? body : Buffer.alloc(0),
      },
      requestContext(request),
    );
  }
}
