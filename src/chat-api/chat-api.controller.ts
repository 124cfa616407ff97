import { Body, Controller, HttpCode, Param, Post, Put, Req } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { RequireApiKey } from '../platform/auth/key.guard';
import { requestContext } from '../platform/http/request-context';
import { parseAgentId } from '../platform/ids/prefixed-ids';
import { CloseChatDto, CreateChatDto, RespondChatDto } from './chat-api.dto';
import { ChatApiService } from './chat-api.service';

/** Chat API (contract §16), a platform family: the `PUBLIC_DOMAIN` host rules apply by its path. */
@Controller('v1/:accountId/:projectId/chat')
@RequireApiKey({ permission: 'chat', account: 'accountId', agent: 'projectId' })
export class ChatApiController {
  constructor(private readonly chat: ChatApiService) {}

  @Post('create')
  @HttpCode(201)
  create(@Param('projectId') projectId: string, @Body() body: CreateChatDto, @Req() request: FastifyRequest) {
    return this.chat.create(parseAgentId(projectId), body, requestContext(request));
  }

  @Post('respond')
  @HttpCode(200)
  respond(@Param('projectId') projectId: string, @Body() body: RespondChatDto, @Req() request: FastifyRequest) {
    return this.chat.respond(parseAgentId(projectId), body, requestContext(request));
  }

  @Put('close')
  @HttpCode(200)
  close(@Param('projectId') projectId: string, @Body() body: CloseChatDto, @Req() request: FastifyRequest) {
    return this.chat.close(parseAgentId(projectId), body, requestContext(request));
  }
}
