import { Module } from '@nestjs/common';
import { ConversationsModule } from '../conversations/conversations.module';
import { ReadModelsModule } from '../read-models/read-models.module';
import { ProcessManagersModule } from '../process-managers/process-managers.module';
import { ChatApiController } from './chat-api.controller';
import { ChatApiService } from './chat-api.service';
import { ChatIdleTimers } from './chat-idle-timers';

/** Chat API (contract §16): a channel over the conversation engine, channel `CHAT`, ids `CHAT-<uuid>`. */
@Module({
  imports: [ConversationsModule, ReadModelsModule, ProcessManagersModule],
  controllers: [ChatApiController],
  providers: [ChatApiService, ChatIdleTimers],
})
export class ChatApiModule {}
