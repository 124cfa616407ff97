import { Module } from '@nestjs/common';
import { AccountsModule } from '../accounts/accounts.module';
import { AgentsModule } from '../agents/agents.module';
import { ConversationsModule } from '../conversations/conversations.module';
import { ReadModelsModule } from '../read-models/read-models.module';
import { ExampleQueriesController } from './example-queries.controller';
import { ExampleQueriesService } from './example-queries.service';
import { TurnWords } from './turn-words';

/**
 * The learning loop (issue 54): conversations teach the agent through its branches. It reads
 * conversations (their turns, data access) and writes topics (the agents' command path).
 */
@Module({
  imports: [AccountsModule, AgentsModule, ConversationsModule, ReadModelsModule],
  controllers: [ExampleQueriesController],
  providers: [ExampleQueriesService, TurnWords],
})
export class LearningModule {}
