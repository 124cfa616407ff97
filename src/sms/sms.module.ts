import { Injectable, Module, type OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import { ConversationsModule } from '../conversations/conversations.module';
import { ConversationEngine } from '../conversations/engine/conversation-engine';
import { EVENT_STORE, type EventStore } from '../event-store/event-store.port';
import { RateLimiter } from '../platform/auth/rate-limiter';
import { Clock } from '../platform/clock/clock';
import { CommandsModule } from '../commands/commands.module';
import { CONFIG, type Config } from '../platform/config/config';
import { IdGenerator } from '../platform/ids/ids';
import { LOGGER } from '../platform/logging/logger';
import { EmbeddedSmsCarrier } from './embedded-carrier';
import { HttpSmsCarrier } from './http-carrier';
import { SmsAdminController } from './sms-admin.controller';
import { SMS_CARRIER, type SmsCarrier } from './sms-carrier.port';
import { SmsConversations } from './sms-conversations';
import { SmsDirectory } from './sms-directory';
import { SmsOutbox } from './sms-outbox';
import { keepInboundSmsBodies } from './sms-raw-body';
import { SmsSessionTimers } from './sms-session-timers';
import { SmsBehindTheLog } from './sms-behind-the-log';
import { SMS_SESSION_COMMANDS, smsSessionCommands, type SmsSessionCommands } from './sms-session-commands';
import { SmsController } from './sms.controller';
import { SMS_RATE_LIMITER, SmsService } from './sms.service';
import { EventStoreModule } from '../event-store/event-store.module';
import { ReadModelsModule } from '../read-models/read-models.module';
import { ProcessManagersModule } from '../process-managers/process-managers.module';
import { AgentDirectoryModule } from '../accounts/agent-directory.module';
import { AgentsModule } from '../agents/agents.module';

/** The inbound webhook reads its body raw (its signature is over the bytes). */
@Injectable()
class SmsRawBodies implements OnModuleInit {
  constructor(private readonly adapterHost: HttpAdapterHost) {}

  onModuleInit() {
    // the platform's body limit (contract §2): 1 MiB
    keepInboundSmsBodies(this.adapterHost.httpAdapter.getInstance<FastifyInstance>(), 1024 * 1024);
  }
}

/** SMS (contract §11): the API, the inbound webhook, sessions on durable timers, the carrier port. */
@Module({
  imports: [
    EventStoreModule,
    CommandsModule,
    ReadModelsModule,
    ProcessManagersModule,
    AgentDirectoryModule,
    AgentsModule,
    ConversationsModule,
  ],
  controllers: [SmsController, SmsAdminController],
  providers: [
    // built from the configuration: the carrier SMS_CARRIER names
    {
      provide: SMS_CARRIER,
      inject: [CONFIG],
      useFactory: (config: Config): SmsCarrier => {
        const carrier = config.sms.carrier;
        return carrier.kind === 'http' ? new HttpSmsCarrier(carrier) : new EmbeddedSmsCarrier();
      },
    },
    // built from the configuration: SMS_RATE_LIMIT_PER_PROJECT
    {
      provide: SMS_RATE_LIMITER,
      inject: [CONFIG],
      useFactory: (config: Config) =>
        new RateLimiter(config.sms.rateLimitPerProject, config.sms.rateLimitPerProject * 2, 'SMS_RATE_LIMITED'),
    },
    smsSessionCommands,
    SmsDirectory,
    SmsService,
    SmsOutbox,
    SmsSessionTimers,
    {
      provide: SmsConversations,
      inject: [
        EVENT_STORE,
        Clock,
        SMS_SESSION_COMMANDS,
        ConversationEngine,
        SmsOutbox,
        SmsSessionTimers,
        IdGenerator,
        LOGGER,
      ],
      useFactory: (
        store: EventStore,
        clock: Clock,
        sessions: SmsSessionCommands,
        engine: ConversationEngine,
        outbox: SmsOutbox,
        timers: SmsSessionTimers,
        ids: IdGenerator,
        logger: Logger,
      ) => new SmsConversations({ store, clock, sessions, engine, outbox, timers, newId: () => ids.uuid(), logger }),
    },
    SmsBehindTheLog,
    SmsRawBodies,
  ],
  // erasure forgets a conversation's unsent texts
  exports: [SmsOutbox],
})
export class SmsModule {}
