import { Module } from '@nestjs/common';
import { ConversationsModule } from '../conversations/conversations.module';
import { DebugChatController } from './debug-chat.controller';
import { DebugChatService } from './debug-chat.service';

@Module({
  imports: [ConversationsModule],
  controllers: [DebugChatController],
  providers: [DebugChatService],
})
export class DebugChatModule {}
