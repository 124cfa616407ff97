import { Module } from '@nestjs/common';
import { AccountsModule } from '../accounts/accounts.module';
import { ServerSecret } from '../platform/auth/server-secret';
import { ReadModels } from '../read-models/read-models.service';
import { ConversationsApiController, HandoffController } from './conversations-api.controller';
import { ConversationsApiService } from './conversations-api.service';
import { ConversationsRepository } from './conversations.repository';
import { Cursors } from './cursor';

@Module({
  imports: [AccountsModule],
  controllers: [ConversationsApiController, HandoffController],
  providers: [
    ConversationsApiService,
    { provide: ConversationsRepository, inject: [ReadModels], useFactory: (readModels: ReadModels) => new ConversationsRepository(readModels) },
    { provide: Cursors, inject: [ServerSecret], useFactory: (secret: ServerSecret) => new Cursors(secret) },
  ],
})
export class ConversationsApiModule {}
