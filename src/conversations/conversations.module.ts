import { Module } from '@nestjs/common';
import { AgentsModule } from '../agents/agents.module';
import { DeploymentContent } from '../agents/deployment-content';
import { CommandsModule } from '../commands/commands.module';
import { EventStoreModule } from '../event-store/event-store.module';
import { ProcessManagersModule } from '../process-managers/process-managers.module';
import { ReadModelsModule } from '../read-models/read-models.module';
import { CONTENT_SOURCE, ConversationEngine } from './engine/conversation-engine';
import { ReadableAtOnce } from './readable-at-once';

/**
 * The conversation engine every channel module imports: one per process, the one writer of
 * conversation streams. And the rule every channel's answers keep: what they say of a
 * conversation's start or end, the Conversations API shows at once (ReadableAtOnce).
 */
@Module({
  imports: [EventStoreModule, CommandsModule, ReadModelsModule, ProcessManagersModule, AgentsModule],
  providers: [{ provide: CONTENT_SOURCE, useExisting: DeploymentContent }, ConversationEngine, ReadableAtOnce],
  exports: [ConversationEngine, ReadableAtOnce],
})
export class ConversationsModule {}
