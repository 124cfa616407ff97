import { Inject, Injectable, Module, type OnModuleInit } from '@nestjs/common';
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
import { ProcessManagers } from '../process-managers/process-managers';
import { Timers } from '../process-managers/timers';
import { EmbeddedSmsCarrier } from './embedded-carrier';
import { HttpSmsCarrier } from './http-carrier';
import { SmsAdminController } from './sms-admin.controller';
import { SMS_CARRIER, type SmsCarrier } from './sms-carrier.port';
import { SmsConversations } from './sms-conversations';
import { SmsDirectory } from './sms-directory';
import { SEND_OWNER, SmsOutbox } from './sms-outbox';
import { keepInboundSmsBodies } from './sms-raw-body';
import { SESSION_TIMER_OWNER, SmsSessionTimers } from './sms-session-timers';
import { SMS_SESSION_COMMANDS, smsSessionCommands, type SmsSessionCommands } from './sms-session-commands';
import { smsSessionsProcessManager } from './sms-sessions.process-manager';
import { SmsController } from './sms.controller';
import { SMS_RATE_LIMITER, SmsService } from './sms.service';
import { EventStoreModule } from '../event-store/event-store.module';
import { ReadModelsModule } from '../read-models/read-models.module';
import { ProcessManagersModule } from '../process-managers/process-managers.module';
import { AgentDirectoryModule } from '../accounts/agent-directory.module';
import { AgentsModule } from '../agents/agents.module';

/** Wires the raw-body parser, the process manager, the session timers and the outbox at start. */
@Injectable()
class SmsLifecycle implements OnModuleInit {
  constructor(
    private readonly adapterHost: HttpAdapterHost,
    private readonly processManagers: ProcessManagers,
    private readonly timers: Timers,
    private readonly engine: ConversationEngine,
    private readonly clock: Clock,
    private readonly ids: IdGenerator,
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(SMS_CARRIER) private readonly carrier: SmsCarrier,
    @Inject(LOGGER) private readonly logger: Logger,
    @Inject(SMS_SESSION_COMMANDS) private readonly sessions: SmsSessionCommands,
  ) {}

  onModuleInit() {
    // the platform's body limit (contract §2): 1 MiB
    keepInboundSmsBodies(this.adapterHost.httpAdapter.getInstance<FastifyInstance>(), 1024 * 1024);
    const outbox = new SmsOutbox(this.timers, this.store, this.clock, this.carrier, this.logger);
    const sessionTimers = new SmsSessionTimers(this.timers, this.clock, this.sessions);
    this.timers.handle(SEND_OWNER, outbox.handler);
    this.timers.handle(SESSION_TIMER_OWNER, sessionTimers.handler);
    const conversations = new SmsConversations({
      store: this.store,
      clock: this.clock,
      sessions: this.sessions,
      engine: this.engine,
      outbox,
      timers: sessionTimers,
      newId: () => this.ids.uuid(),
      logger: this.logger,
    });
    this.processManagers.register(smsSessionsProcessManager(conversations));
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
    SmsLifecycle,
  ],
})
export class SmsModule {}
