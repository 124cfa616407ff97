import { Module } from '@nestjs/common';
import { AccountsModule } from '../accounts/accounts.module';
import { EventStoreModule } from '../event-store/event-store.module';
import { ReadModels } from '../read-models/read-models.service';
import { ConversationsApiController, HandoffController } from './conversations-api.controller';
import { ConversationsApiService, SEMANTIC_RANKER } from './conversations-api.service';
import { EmbeddingsClient } from '../platform/embeddings/embeddings-client';
import { EmbeddingRanker } from './embeddings';
import { CONFIG, type Config } from '../platform/config/config';
import { CONVERSATIONS_REPOSITORY, conversationsRepository } from '../../projections/conversations/queries';
import { Cursors } from './cursor';
import { ReadModelsModule } from '../read-models/read-models.module';
import { ProcessManagersModule } from '../process-managers/process-managers.module';
import { ConversationsModule } from '../conversations/conversations.module';

@Module({
  imports: [EventStoreModule, ReadModelsModule, ProcessManagersModule, AccountsModule, ConversationsModule],
  controllers: [ConversationsApiController, HandoffController],
  providers: [
    ConversationsApiService,
    // a read model's query repository, over the serving generation (projections/conversations/queries.ts)
    {
      provide: CONVERSATIONS_REPOSITORY,
      inject: [ReadModels],
      useFactory: (readModels: ReadModels) => conversationsRepository(readModels),
    },
    Cursors,
    // built from the configuration: an embeddings endpoint, or none
    {
      provide: SEMANTIC_RANKER,
      inject: [CONFIG],
      useFactory: (config: Config) =>
        config.embeddings ? new EmbeddingRanker(new EmbeddingsClient(config.embeddings)) : null,
    },
  ],
})
export class ConversationsApiModule {}
