import { Module } from '@nestjs/common';
import { AgentsModule } from '../agents/agents.module';
import { ConversationsModule } from '../conversations/conversations.module';
import { EventStoreModule } from '../event-store/event-store.module';
import { ProcessManagersModule } from '../process-managers/process-managers.module';
import { AnalysisBehindTheLog } from './analysis-behind-the-log';

/**
 * Post-call analysis (contract §24): a process manager appends ConversationAnalysed to each ended
 * conversation. It reads the deployment the conversation ran on (AgentsModule) and asks the model
 * its turns use (ModelRouter, from the global RuntimeModule).
 */
@Module({
  imports: [EventStoreModule, ProcessManagersModule, ConversationsModule, AgentsModule],
  providers: [AnalysisBehindTheLog],
})
export class AnalysisModule {}
