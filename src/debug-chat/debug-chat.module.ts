import { Module } from '@nestjs/common';
import { AgentRuntime } from '../runtime/agent-runtime';
import { DebugChatController } from './debug-chat.controller';
import { DebugChatService } from './debug-chat.service';

@Module({
  controllers: [DebugChatController],
  providers: [DebugChatService, AgentRuntime],
})
export class DebugChatModule {}
