import { Readable } from 'node:stream';
import { Controller, Get, Param, Query, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { keyOf, RequireApiKey } from '../platform/auth/key.guard';
import { parseAgentId } from '../platform/ids/prefixed-ids';
import { ConversationsApiService } from './conversations-api.service';
import type { ApiVersion } from './list-query';

const versionOf = (request: FastifyRequest): ApiVersion => request.url.slice(1, 3) as ApiVersion;
const paths = (suffix: string) =>
  (['v1', 'v2', 'v3'] as const).map((v) => `${v}/:accountId/:projectId/conversations${suffix}`);

/**
 * Conversations API v3, v2 and v1 (interface.md, contract §8). A key that reaches the project
 * without the `conversations` permission still gets 200 with basic fields (contract §4).
 */
@Controller()
@RequireApiKey({
  permission: 'conversations',
  account: 'accountId',
  agent: 'projectId',
  permissionShapesResponse: true,
})
export class ConversationsApiController {
  constructor(private readonly conversations: ConversationsApiService) {}

  @Get(paths(''))
  async list(
    @Param('projectId') projectId: string,
    @Query() query: Record<string, unknown>,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    const answer = await this.conversations.list(versionOf(request), parseAgentId(projectId), query, keyOf(request)!);
    // chunked streaming: the same JSON document, sent as it is written
    if (answer instanceof Readable) reply.header('content-type', 'application/json; charset=utf-8');
    return answer;
  }

  @Get(paths('/:conversationId'))
  one(
    @Param('projectId') projectId: string,
    @Param('conversationId') conversationId: string,
    @Query() query: Record<string, unknown>,
    @Req() request: FastifyRequest,
  ) {
    return this.conversations.one(versionOf(request), parseAgentId(projectId), conversationId, query, keyOf(request)!);
  }

  /** The audit history: needs the permission outright, no basic-fields fallback. */
  @Get('v3/:accountId/:projectId/conversations/:conversationId/events')
  @RequireApiKey({ permission: 'conversations', account: 'accountId', agent: 'projectId' })
  events(
    @Param('projectId') projectId: string,
    @Param('conversationId') conversationId: string,
    @Req() request: FastifyRequest,
  ) {
    return this.conversations.events(parseAgentId(projectId), conversationId, keyOf(request)!);
  }
}

/** Handoff API (interface.md, contract §9). */
@Controller('v1/:accountId/:projectId/handoff_state')
@RequireApiKey({ permission: 'handoff', account: 'accountId', agent: 'projectId' })
export class HandoffController {
  constructor(private readonly conversations: ConversationsApiService) {}

  @Get()
  state(@Param('projectId') projectId: string, @Query() query: Record<string, unknown>) {
    return this.conversations.handoff(parseAgentId(projectId), query);
  }
}
