import { Module } from '@nestjs/common';
import { AccountsModule } from '../accounts/accounts.module';
import { KeyAuthModule } from '../accounts/key-auth.module';
import { AgentDirectoryModule } from '../accounts/agent-directory.module';
import { ReadModelAccountDirectory } from '../accounts/read-model-account-directory';
import { ACCOUNT_DIRECTORY } from '../platform/auth/account-directory';
import { ReadModels } from '../read-models/read-models.service';
import { ReadModelsModule } from '../read-models/read-models.module';
import { CONVERSATIONS_REPOSITORY, conversationsRepository } from '../../projections/conversations/queries';
import { StudioFeedAdmission } from './live/studio-feed-admission';
import { StudioFeedConnections } from './live/studio-feed-connections';
import { StudioFeedGateway } from './live/studio-feed-gateway';
import { StudioFeedHub } from './live/studio-feed-hub';
import { StudioController } from './studio.controller';

/**
 * The Studio web console's files (docs/studio.md), a client of the public API like any other, and
 * its live conversations feed at /studio/ws (docs/sockets.md).
 */
@Module({
  imports: [ReadModelsModule, KeyAuthModule, AgentDirectoryModule, AccountsModule],
  controllers: [StudioController],
  providers: [
    StudioFeedHub,
    StudioFeedAdmission,
    StudioFeedConnections,
    StudioFeedGateway,
    { provide: ACCOUNT_DIRECTORY, useClass: ReadModelAccountDirectory },
    // the conversations read model's queries, as the Conversations API reads them
    {
      provide: CONVERSATIONS_REPOSITORY,
      inject: [ReadModels],
      useFactory: (readModels: ReadModels) => conversationsRepository(readModels),
    },
  ],
})
export class StudioModule {}
