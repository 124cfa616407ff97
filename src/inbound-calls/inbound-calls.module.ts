import { ProcessManagersModule } from '../process-managers/process-managers.module';
import { AgentsModule } from '../agents/agents.module';
import { AgentDirectoryModule } from '../accounts/agent-directory.module';
import { Module } from '@nestjs/common';
import { CallLimitsModule } from '../call-limits/call-limits.module';
import { ConversationsModule } from '../conversations/conversations.module';
import { DniModule } from '../dni/dni.module';
import { CommandsModule } from '../commands/commands.module';
import { EventStoreModule } from '../event-store/event-store.module';
import { ReadModelsModule } from '../read-models/read-models.module';
import { InboundCallsController } from './inbound-calls.controller';
import { InboundCallsService } from './inbound-calls.service';

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
  providers: [InboundCallsService],
  exports: [InboundCallsService],
})
export class InboundCallsModule {}
