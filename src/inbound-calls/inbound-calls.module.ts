import { ProcessManagersModule } from '../process-managers/process-managers.module';
import { AgentsModule } from '../agents/agents.module';
import { AgentDirectoryModule } from '../accounts/agent-directory.module';
import { Injectable, Module, OnModuleInit } from '@nestjs/common';
import { CallLimitsModule } from '../call-limits/call-limits.module';
import { ConversationsModule } from '../conversations/conversations.module';
import { DniModule } from '../dni/dni.module';
import { CommandsModule } from '../commands/commands.module';
import { EventStoreModule } from '../event-store/event-store.module';
import { Timers } from '../process-managers/timers';
import { ReadModelsModule } from '../read-models/read-models.module';
import { InboundCallsController } from './inbound-calls.controller';
import { INBOUND_WATCHDOG, InboundCallsService } from './inbound-calls.service';

/** Registers the watchdog that ends calls lost with their process. */
@Injectable()
class InboundCallsLifecycle implements OnModuleInit {
  constructor(
    private readonly timers: Timers,
    private readonly calls: InboundCallsService,
  ) {}

  onModuleInit() {
    this.timers.handle(INBOUND_WATCHDOG, (timer) => this.calls.lost((timer.payload as { callSid: string }).callSid));
  }
}

@Module({
  imports: [
    ProcessManagersModule,
    EventStoreModule,
    CommandsModule,
    ReadModelsModule,
    ConversationsModule,
    CallLimitsModule,
    DniModule,
    AgentDirectoryModule,
    AgentsModule,
  ],
  controllers: [InboundCallsController],
  providers: [InboundCallsService, InboundCallsLifecycle],
  exports: [InboundCallsService],
})
export class InboundCallsModule {}
