import { Inject, Injectable, Module, type OnModuleInit } from '@nestjs/common';
import { ConversationsModule } from '../conversations/conversations.module';
import { ConversationEngine } from '../conversations/engine/conversation-engine';
import { Clock } from '../platform/clock/clock';
import { CONFIG, type Config } from '../platform/config/config';
import { ProcessManagers } from '../process-managers/process-managers';
import { Timers } from '../process-managers/timers';
import { ReadModelsModule } from '../read-models/read-models.module';
import { ProcessManagersModule } from '../process-managers/process-managers.module';
import { ChatApiController } from './chat-api.controller';
import { ChatApiService } from './chat-api.service';
import { ChatIdleTimers } from './chat-idle-timers';

/** Registers the idle expiry's process manager and timer handler before the read side starts. */
@Injectable()
class ChatApiLifecycle implements OnModuleInit {
  constructor(
    private readonly processManagers: ProcessManagers,
    private readonly timers: Timers,
    private readonly engine: ConversationEngine,
    private readonly clock: Clock,
    @Inject(CONFIG) private readonly config: Config,
  ) {}

  onModuleInit() {
    const idle = new ChatIdleTimers(this.timers, this.engine, this.clock, this.config.chatIdleS * 1000);
    idle.register();
    this.processManagers.register(idle.processManager());
  }
}

/** Chat API (contract §16): a channel over the conversation engine, channel `CHAT`, ids `CHAT-<uuid>`. */
@Module({
  imports: [ConversationsModule, ReadModelsModule, ProcessManagersModule],
  controllers: [ChatApiController],
  providers: [ChatApiService, ChatApiLifecycle],
})
export class ChatApiModule {}
