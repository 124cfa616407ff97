import { Module } from '@nestjs/common';
import { AgentsModule } from '../agents/agents.module';
import { DeploymentContent } from '../agents/deployment-content';
import { EventStoreModule } from '../event-store/event-store.module';
import { RuntimeModule } from '../runtime/runtime.module';
import { EVENT_STORE, type EventStore } from '../event-store/event-store.port';
import { Clock } from '../platform/clock/clock';
import { IdGenerator } from '../platform/ids/ids';
import { AgentRuntime } from '../runtime/agent-runtime';
import { ConversationCache } from './conversation-cache';
import { ConversationEngine } from './engine/conversation-engine';

/** The conversation engine every channel module imports; one per process, with one cache of folded conversations. */
@Module({
  imports: [EventStoreModule, AgentsModule, RuntimeModule],
  providers: [
    ConversationCache,
    {
      provide: ConversationEngine,
      inject: [EVENT_STORE, Clock, IdGenerator, DeploymentContent, AgentRuntime, ConversationCache],
      useFactory: (
        store: EventStore,
        clock: Clock,
        ids: IdGenerator,
        deployments: DeploymentContent,
        runtime: AgentRuntime,
        cache: ConversationCache,
      ) => new ConversationEngine({ store, clock, newId: () => ids.uuid(), deployments, runtime, cache }),
    },
  ],
  exports: [ConversationCache, ConversationEngine],
})
export class ConversationsModule {}
