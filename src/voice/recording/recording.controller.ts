import { Controller, Get, Inject, Param, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { DataAccessService } from '../../accounts/data-access.service';
import { conversationStream, type ConversationEvent } from '../../conversations/conversation.events';
import { EVENT_STORE, type EventStore } from '../../event-store/event-store.port';
import { keyOf, RequireApiKey } from '../../platform/auth/key.guard';
import { notFound } from '../../platform/errors/domain-error';
import { parseAgentId } from '../../platform/ids/prefixed-ids';
import { CallRecordings } from './call-recordings';

const CONVERSATION_ID = /^[A-Za-z0-9_-]{1,128}$/;
const noRecording = () => notFound('RECORDING_NOT_FOUND', 'no recording of that conversation');

/**
 * A call's recording, served with its conversation (beside `/conversations/{id}/events`): it needs
 * the `conversations` permission outright and the project's transcript access, since it holds
 * everything the transcript does and more. Without transcript access, for a conversation of another
 * project, one never recorded or one past its retention, the answer is the same 404.
 */
@Controller()
@RequireApiKey({ permission: 'conversations', account: 'accountId', agent: 'projectId' })
export class RecordingController {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    private readonly dataAccess: DataAccessService,
    private readonly recordings: CallRecordings,
  ) {}

  @Get('v3/:accountId/:projectId/conversations/:conversationId/recording')
  async recording(
    @Param('projectId') projectId: string,
    @Param('conversationId') conversationId: string,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    const agentId = parseAgentId(projectId);
    const access = await this.dataAccess.config(agentId);
    if (!access.showTranscripts || !keyOf(request)?.permissions.includes('conversations')) throw noRecording();
    if (!CONVERSATION_ID.test(conversationId)) throw noRecording();
    const [started] = (await this.store.readStream(conversationStream(conversationId), { maxCount: 1 })) as unknown as
      ConversationEvent[] | [];
    if (!started || started.type !== 'ConversationStarted' || started.data.agentId !== agentId) throw noRecording();
    const recording = await this.recordings.open(conversationId);
    if (!recording) throw noRecording();
    reply.header('content-type', 'audio/wav');
    reply.header('content-length', String(recording.bytes));
    reply.header('cache-control', 'no-store');
    return recording.stream;
  }
}
