import { BeforeApplicationShutdown, Injectable, Module, OnApplicationBootstrap, OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { FastifyInstance } from 'fastify';
import { ConversationsModule } from '../conversations/conversations.module';
import { ReadModels } from '../read-models/read-models.service';
import { AccessTokens } from './access-tokens';
import { AgentTurns } from './agent-turns';
import { ChatAdmission } from './chat-admission';
import { ChatConnections } from './chat-connections';
import { ChatDemoController } from './chat-demo.controller';
import { ChatGateway } from './chat-gateway';
import { ChatMessages } from './chat-messages';
import { ConnectorDirectory } from './connectors';
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
import { DelayedResponses } from './delayed-responses';
import { SocketHub } from './socket-hub';
import { CommandsModule } from '../commands/commands.module';
import { EventStoreModule } from '../event-store/event-store.module';
import { ReadModelsModule } from '../read-models/read-models.module';
import { ProcessManagersModule } from '../process-managers/process-managers.module';
import { AgentDirectoryModule } from '../accounts/agent-directory.module';
import { KeyAuthModule } from '../accounts/key-auth.module';
import { MESSAGING_SESSIONS_READ_MODEL } from '../../projections/messaging-sessions/queries';
import { API_KEYS_READ_MODEL } from '../../projections/api-keys/queries';

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
    private readonly readModels: ReadModels,
    private readonly feed: SessionFeed,
    private readonly chat: ChatGateway,
    private readonly desk: DeskGateway,
    private readonly deskSockets: DeskConnections,
    private readonly hub: SocketHub,
  ) {}

  onModuleInit() {
    this.readModels.onApplied(MESSAGING_SESSIONS_READ_MODEL, (batch) => this.deskSockets.onReadModelApplied(batch));
    this.readModels.onApplied(API_KEYS_READ_MODEL, (batch) => this.deskSockets.onKeyEvents(batch));
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
  imports: [
    EventStoreModule,
    CommandsModule,
    ReadModelsModule,
    ProcessManagersModule,
    AgentDirectoryModule,
    KeyAuthModule,
    ConversationsModule,
  ],
  controllers: [MessagingHttpController, ChatDemoController],
  providers: [
    SessionCommands,
    ConnectorDirectory,
    AccessTokens,
    SocketHub,
    DeskHub,
    DeskQueue,
    DeskAvailability,
    SessionFeed,
    AgentTurns,
    MessagingHttpService,
    DeskAdmission,
    DeskConnections,
    ChatMessages,
    ChatAdmission,
    ChatConnections,
    SessionTimers,
    DelayedResponses,
    ChatGateway,
    DeskGateway,
    ConnectorTokenGuard,
    AccessTokenGuard,
    MessagingLifecycle,
  ],
})
export class MessagingModule {}
