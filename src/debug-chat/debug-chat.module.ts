import { Module } from '@nestjs/common';
import { DebugChatController } from './debug-chat.controller';
import { DebugChatService } from './debug-chat.service';

@Module({
  controllers: [DebugChatController],
  providers: [DebugChatService],
})
export class DebugChatModule {}
