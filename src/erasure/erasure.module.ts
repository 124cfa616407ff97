import { Inject, Injectable, Module, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import { ConversationsModule } from '../conversations/conversations.module';
import { EventStoreModule } from '../event-store/event-store.module';
import { SealingRegistry } from '../event-store/sealing';
import { ServerSecret } from '../platform/auth/server-secret';
import { CONFIG, type Config } from '../platform/config/config';
import { ReadModelsModule } from '../read-models/read-models.module';
import { SmsModule } from '../sms/sms.module';
import { RecordingsModule } from '../voice/recording/recordings.module';
import { CONVERSATION_KEYS, type ConversationKeyStore } from './conversation-keys';
import { ConversationSealing } from './conversation-sealing';
import { openConversationKeyStore } from './open-key-store';
import { PersonalDataController } from './personal-data.controller';
import { PersonalDataService } from './personal-data.service';

/** Seals every conversation's personal fields from the first read and append on; closes the key store last. */
@Injectable()
class SealingLifecycle implements OnModuleInit, OnApplicationShutdown {
  constructor(
    private readonly registry: SealingRegistry,
    private readonly sealing: ConversationSealing,
    @Inject(CONVERSATION_KEYS) private readonly keys: ConversationKeyStore,
  ) {}

  onModuleInit(): void {
    this.registry.register(this.sealing);
  }

  async onApplicationShutdown(): Promise<void> {
    await this.keys.close();
  }
}

/** Crypto-shredding of conversations (contract §24): the key store, the sealing, the erasure route. */
@Module({
  imports: [EventStoreModule, ConversationsModule, ReadModelsModule, RecordingsModule, SmsModule],
  controllers: [PersonalDataController],
  providers: [
    {
      provide: CONVERSATION_KEYS,
      inject: [CONFIG, ServerSecret],
      // built from the configuration: PostgreSQL where processes share a database, else DATA_DIR
      useFactory: (config: Config, secret: ServerSecret) => openConversationKeyStore(config, secret),
    },
    {
      provide: ConversationSealing,
      inject: [CONVERSATION_KEYS],
      useFactory: (keys: ConversationKeyStore) => new ConversationSealing(keys),
    },
    SealingLifecycle,
    PersonalDataService,
  ],
})
export class ErasureModule {}
