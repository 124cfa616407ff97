import { Module } from '@nestjs/common';
import { AgentsModule } from '../agents/agents.module';
import { DeploymentContent } from '../agents/deployment-content';
import { EventStoreModule } from '../event-store/event-store.module';
import { RuntimeModule } from '../runtime/runtime.module';
import { ConversationCache } from './conversation-cache';
import { CONTENT_SOURCE, ConversationEngine } from './engine/conversation-engine';

/** The conversation engine every channel module imports; one per process, with one cache of folded conversations. */
@Module({
  imports: [EventStoreModule, AgentsModule, RuntimeModule],
  providers: [ConversationCache, { provide: CONTENT_SOURCE, useExisting: DeploymentContent }, ConversationEngine],
  exports: [ConversationCache, ConversationEngine],
})
export class ConversationsModule {}
