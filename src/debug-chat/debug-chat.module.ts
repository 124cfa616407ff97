import { Module } from '@nestjs/common';
import { AgentsModule } from '../agents/agents.module';
import { ConversationsModule } from '../conversations/conversations.module';
import { DebugChatController } from './debug-chat.controller';
import { DebugChatService } from './debug-chat.service';

@Module({
  imports: [ConversationsModule, AgentsModule],
  controllers: [DebugChatController],
  providers: [DebugChatService],
})
export class DebugChatModule {}
