import { Body, Controller, HttpCode, Param, Post, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { keyOf, RequireApiKey } from '../platform/auth/key.guard';
import { requestContext } from '../platform/http/request-context';
import { parseAgentId } from '../platform/ids/prefixed-ids';
import { AddExampleQueryDto } from './example-query.dto';
import { ExampleQueriesService } from './example-queries.service';

/**
 * The learning loop (issue 54) in the Agents API family: an example query added to a topic of a
 * branch, from a conversation's user turn. Beside the topics routes because it edits a topic;
 * reading the turn's words also needs what the Conversations API needs (example-queries.service.ts).
 */
@Controller('v1/agents/:agentId/branches/:branchId/knowledge-base/example-queries')
@RequireApiKey({ permission: 'agents', agent: 'agentId' })
export class ExampleQueriesController {
  constructor(private readonly learning: ExampleQueriesService) {}

  @Post()
  @HttpCode(200)
  async add(
    @Param('agentId') agentId: string,
    @Param('branchId') branchId: string,
    @Body() body: AddExampleQueryDto,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    const learned = await this.learning.add(
      parseAgentId(agentId),
      branchId,
      body,
      keyOf(request)!,
      requestContext(request),
    );
    if (learned.created) reply.status(201);
    return learned.body;
  }
}
