import { Body, Controller, HttpCode, Param, Post, Req } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { RequireApiKey } from '../platform/auth/key.guard';
import { requestContext } from '../platform/http/request-context';
import { parseAgentId } from '../platform/ids/prefixed-ids';
import { DebugChatTurnDto, StartDebugChatDto } from './debug-chat.dto';
import { DebugChatService } from './debug-chat.service';

/** Debug chat uses the same key and host as the Agents API (interface.md). */
@Controller('v1/agents/:agentId/debug-chat')
@RequireApiKey({ permission: 'agents', agent: 'agentId' })
export class DebugChatController {
  constructor(private readonly chat: DebugChatService) {}

  @Post()
  @HttpCode(201)
  start(@Param('agentId') agentId: string, @Body() body: StartDebugChatDto, @Req() request: FastifyRequest) {
    return this.chat.start(parseAgentId(agentId), body, requestContext(request));
  }

  @Post(':conversationId')
  @HttpCode(200)
  turn(
    @Param('agentId') agentId: string,
    @Param('conversationId') conversationId: string,
    @Body() body: DebugChatTurnDto,
    @Req() request: FastifyRequest,
  ) {
    return this.chat.turn(parseAgentId(agentId), conversationId, body, requestContext(request));
  }
}
