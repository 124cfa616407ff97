import { BeforeApplicationShutdown, Injectable, Module, OnApplicationBootstrap, OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import { ConversationsModule } from '../conversations/conversations.module';
import { ConversationEngine } from '../conversations/engine/conversation-engine';
import { EVENT_STORE, type EventStore } from '../event-store/event-store.port';
import { AGENT_DIRECTORY, type AgentDirectory } from '../platform/auth/agent-directory';
import { KeyAuthenticator } from '../platform/auth/key-authenticator';
import { RateLimiter } from '../platform/auth/rate-limiter';
import { ServerSecret } from '../platform/auth/server-secret';
import { Clock } from '../platform/clock/clock';
import { CONFIG, type Config } from '../platform/config/config';
import { IdGenerator } from '../platform/ids/ids';
import { LOGGER } from '../platform/logging/logger';
import { ProcessManagers } from '../process-managers/process-managers';
import { ReadModels } from '../read-models/read-models.service';
import { Timers } from '../process-managers/timers';
import { AccessTokens } from './access-tokens';
import { AgentTurns } from './agent-turns';
import { ChatAdmission } from './chat-admission';
import { ChatConnections } from './chat-connections';
import { ChatDemoController } from './chat-demo.controller';
import { ChatGateway } from './chat-gateway';
import { ChatMessages } from './chat-messages';
import { ConnectorDirectory } from './connectors';
import { delayedResponsesProcessManager } from './delayed-responses';
import { DeskAdmission } from './desk/desk-admission';
import { DeskAvailability } from './desk/desk-availability';
import { DeskConnections } from './desk/desk-connections';
import { DeskGateway } from './desk/desk-gateway';
import { DeskHub } from './desk/desk-hub';
import { DeskQueue } from './desk/desk-queue';
import { AccessTokenGuard, ConnectorTokenGuard } from './messaging-auth.guards';
import { MessagingHttpController, RAW_BODY_ROUTES } from './messaging-http.controller';
import { MessagingHttpService } from './messaging-http.service';
import { SessionCommands } from './session-commands';
import { SessionFeed } from './session-feed';
import { SessionTimers } from './session-timers';
import { SocketHub } from './socket-hub';
import { EventStoreModule } from '../event-store/event-store.module';
import { ReadModelsModule } from '../read-models/read-models.module';
import { AgentDirectoryModule } from '../agents/agent-directory.module';
import { KeyAuthModule } from '../accounts/key-auth.module';

/** The media type the messaging POSTs' bodies are given, so that they arrive as text. */
const MESSAGING_TEXT = 'application/vnd.parley.messaging-text';

/**
 * Wires the sockets to the read models, the timers and the feed; tells every socket before the
 * feed stops (the WebSocket adapter then closes the servers).
 */
@Injectable()
class MessagingLifecycle implements OnModuleInit, OnApplicationBootstrap, BeforeApplicationShutdown {
  constructor(
    private readonly adapterHost: HttpAdapterHost,
    private readonly processManagers: ProcessManagers,
    private readonly readModels: ReadModels,
    private readonly timers: SessionTimers,
    private readonly turns: AgentTurns,
    private readonly feed: SessionFeed,
    private readonly chat: ChatGateway,
    private readonly desk: DeskGateway,
    private readonly deskSockets: DeskConnections,
    private readonly hub: SocketHub,
  ) {}

  onModuleInit() {
    this.processManagers.register(this.timers.processManager());
    this.processManagers.register(delayedResponsesProcessManager(this.turns));
    this.timers.register();
    this.readModels.onApplied('messaging-sessions', (batch) => this.deskSockets.onReadModelApplied(batch));
    this.readModels.onApplied('api-keys', (batch) => this.deskSockets.onKeyEvents(batch));
    this.feed.onEvents((sessionId, events) => this.hub.deliverStored(sessionId, events));
    this.feed.onEvents((sessionId, events, recorded) => this.deskSockets.onSessionEvents(sessionId, events, recorded));
    const fastify = this.adapterHost.httpAdapter.getInstance<FastifyInstance>();
    // The two messaging POSTs read their body as text: a body that is not JSON must answer this
    // API's "Error parsing request", after the header checks (interface.md's tables), not the
    // platform's generic JSON error before them.
    // A private media type (the platform has no text/plain parser: JSON routes refuse text).
    fastify.addContentTypeParser(MESSAGING_TEXT, { parseAs: 'string' }, (_request, body, done) => done(null, body));
    fastify.addHook('onRequest', (request, _reply, done) => {
      if (request.method === 'POST' && RAW_BODY_ROUTES.has(request.routeOptions.url ?? ''))
        request.headers['content-type'] = MESSAGING_TEXT;
      done();
    });
  }

  async onApplicationBootstrap() {
    await this.feed.start();
  }

  async beforeApplicationShutdown() {
    this.desk.dropAll();
    await this.chat.goingAway();
    await this.feed.stop();
  }
}

/** The messaging channel (contract §14): access tokens, sessions, the chat and desk WebSockets, the demo page. */
@Module({
  imports: [EventStoreModule, ReadModelsModule, AgentDirectoryModule, KeyAuthModule, ConversationsModule],
  controllers: [MessagingHttpController, ChatDemoController],
  // The gateways and services below still take an options object from a factory (contract
  // settings and rate limiters built from the configuration among their dependencies).
  providers: [
    SessionCommands,
    ConnectorDirectory,
    {
      provide: AccessTokens,
      inject: [ServerSecret, Clock, CONFIG],
      useFactory: (secret: ServerSecret, clock: Clock, config: Config) =>
        new AccessTokens(secret, clock, config.messaging.tokenTtlS),
    },
    SocketHub,
    DeskHub,
    DeskQueue,
    DeskAvailability,
    SessionFeed,
    {
      provide: AgentTurns,
      inject: [
        EVENT_STORE,
        Clock,
        IdGenerator,
        ConversationEngine,
        SessionCommands,
        ConnectorDirectory,
        AGENT_DIRECTORY,
        DeskAvailability,
        ReadModels,
        LOGGER,
        CONFIG,
      ],
      useFactory: (
        store: EventStore,
        clock: Clock,
        ids: IdGenerator,
        engine: ConversationEngine,
        sessions: SessionCommands,
        connectors: ConnectorDirectory,
        agents: AgentDirectory,
        desk: DeskAvailability,
        readModels: ReadModels,
        logger: Logger,
        config: Config,
      ) =>
        new AgentTurns({
          store,
          clock,
          ids,
          engine,
          sessions,
          connectors,
          agents,
          desk,
          readModels,
          logger,
          maxConcurrentTurns: config.messaging.maxConcurrentTurns,
        }),
    },
    {
      provide: MessagingHttpService,
      inject: [ConnectorDirectory, AccessTokens, SessionCommands, Clock, IdGenerator, LOGGER, CONFIG],
      useFactory: (
        connectors: ConnectorDirectory,
        tokens: AccessTokens,
        sessions: SessionCommands,
        clock: Clock,
        ids: IdGenerator,
        logger: Logger,
        config: Config,
      ) =>
        new MessagingHttpService({
          connectors,
          tokens,
          sessions,
          limiter: new RateLimiter(config.messaging.rateLimitPerSession),
          clock,
          ids,
          logger,
          limits: {
            maxConnectionsPerSession: config.messaging.maxConnectionsPerSession,
            sessionIdleS: config.messaging.sessionIdleS,
            handoffTimeoutS: config.messaging.handoffTimeoutS,
          },
        }),
    },
    {
      provide: DeskAdmission,
      inject: [KeyAuthenticator, DeskHub, CONFIG],
      useFactory: (keys: KeyAuthenticator, hub: DeskHub, config: Config) =>
        new DeskAdmission({ keys, hub, maxSocketsPerKey: config.messaging.maxDeskSocketsPerKey }),
    },
    {
      provide: DeskConnections,
      inject: [
        KeyAuthenticator,
        DeskHub,
        SocketHub,
        DeskQueue,
        SessionCommands,
        EVENT_STORE,
        Clock,
        IdGenerator,
        LOGGER,
      ],
      useFactory: (
        keys: KeyAuthenticator,
        hub: DeskHub,
        chats: SocketHub,
        queue: DeskQueue,
        sessions: SessionCommands,
        store: EventStore,
        clock: Clock,
        ids: IdGenerator,
        logger: Logger,
      ) => new DeskConnections({ keys, hub, chats, queue, sessions, store, clock, ids, logger }),
    },
    {
      provide: ChatMessages,
      inject: [SocketHub, SessionCommands, AgentTurns, DeskConnections, Clock, IdGenerator, LOGGER, CONFIG],
      useFactory: (
        hub: SocketHub,
        sessions: SessionCommands,
        turns: AgentTurns,
        desk: DeskConnections,
        clock: Clock,
        ids: IdGenerator,
        logger: Logger,
        config: Config,
      ) =>
        new ChatMessages({
          hub,
          sessions,
          turns,
          limiter: new RateLimiter(config.messaging.rateLimitPerSession),
          clock,
          ids,
          logger,
          idleMs: config.messaging.sessionIdleS * 1000,
          onUserTyping: (sessionId, event) => desk.onUserTyping(sessionId, event),
        }),
    },
    {
      provide: ChatAdmission,
      inject: [SocketHub, SessionCommands, AccessTokens, AgentTurns, Clock, IdGenerator, CONFIG],
      useFactory: (
        hub: SocketHub,
        sessions: SessionCommands,
        tokens: AccessTokens,
        turns: AgentTurns,
        clock: Clock,
        ids: IdGenerator,
        config: Config,
      ) =>
        new ChatAdmission({
          hub,
          sessions,
          tokens,
          turns,
          limiter: new RateLimiter(config.messaging.rateLimitPerSession),
          clock,
          ids,
          idleMs: config.messaging.sessionIdleS * 1000,
          maxConnectionsPerSession: config.messaging.maxConnectionsPerSession,
        }),
    },
    {
      provide: ChatConnections,
      inject: [SocketHub, ChatMessages, EVENT_STORE, Clock, IdGenerator, LOGGER],
      useFactory: (
        hub: SocketHub,
        messages: ChatMessages,
        store: EventStore,
        clock: Clock,
        ids: IdGenerator,
        logger: Logger,
      ) => new ChatConnections({ hub, messages, store, clock, ids, logger }),
    },
    {
      provide: SessionTimers,
      inject: [Timers, SessionCommands, AgentTurns, Clock, CONFIG],
      useFactory: (timers: Timers, sessions: SessionCommands, turns: AgentTurns, clock: Clock, config: Config) =>
        new SessionTimers(
          timers,
          sessions,
          turns,
          clock,
          config.messaging.sessionIdleS * 1000,
          config.messaging.handoffTimeoutS * 1000,
        ),
    },
    ChatGateway,
    DeskGateway,
    ConnectorTokenGuard,
    AccessTokenGuard,
    MessagingLifecycle,
  ],
})
export class MessagingModule {}
