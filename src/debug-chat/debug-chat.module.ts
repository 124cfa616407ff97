import { Module } from '@nestjs/common';
import { CONFIG, type Config } from '../platform/config/config';
import { AgentRuntime } from '../runtime/agent-runtime';
import { LlmClient } from '../runtime/llm/llm-client';
import { DebugChatController } from './debug-chat.controller';
import { DebugChatService } from './debug-chat.service';

@Module({
  controllers: [DebugChatController],
  providers: [
    DebugChatService,
    { provide: AgentRuntime, inject: [CONFIG], useFactory: (config: Config) => new AgentRuntime(config.llm ? new LlmClient(config.llm) : null) },
  ],
})
export class DebugChatModule {}
