import { Inject, Injectable } from '@nestjs/common';
import type { Logger } from 'pino';
import { RateLimiter } from '../platform/auth/rate-limiter';
import { Clock } from '../platform/clock/clock';
import { CONFIG, type Config } from '../platform/config/config';
import type { CommandContext } from '../commands/command-context';
import { KeyedQueue } from '../commands/keyed-queue';
import { DomainError } from '../platform/errors/domain-error';
import { IdGenerator } from '../platform/ids/ids';
import { LOGGER } from '../platform/logging/logger';
import { AgentTurns, MessagingFailure } from './agent-turns';
import { isRejected, parseClientMessage, type ClientMessage } from './client-message';
import { DeskConnections } from './desk/desk-connections';
import { SessionCommands } from './session-commands';
import { isExpired, type SessionState } from './session.decider';
import { SocketHub, type HubSocket } from './socket-hub';
import { SYSTEM_MESSAGES } from './system-messages';
import { systemMessage, transient } from './wire';

/** A chat socket: who opened it, on which session. */
export interface ChatSocket extends HubSocket {
  readonly tokenId: string;
}

const DOMAIN_MESSAGES: Record<string, string> = {
  SESSION_NOT_FOUND: SYSTEM_MESSAGES.sessionNotFound,
  CONVERSATION_NOT_STARTED: SYSTEM_MESSAGES.conversationIdNotFound,
  CONVERSATION_NOT_ACTIVE: SYSTEM_MESSAGES.conversationNotFound,
};

/**
 * What the server does with each client frame. Errors about one frame go back to its socket only,
 * as SYSTEM_MESSAGE at error level with the frame's `metadata.custom`; the socket stays open.
 * Frames that change the session run one at a time per session, in arrival order.
 */
@Injectable()
export class ChatMessages {
  private readonly queue = new KeyedQueue();
  /** frames per session (MESSAGING_RATE_LIMIT_PER_SESSION) */
  private readonly limiter: RateLimiter;
  private readonly idleMs: number;

  constructor(
    private readonly hub: SocketHub,
    private readonly sessions: SessionCommands,
    private readonly turns: AgentTurns,
    /** user typing goes to the desk agent holding the session */
    private readonly desk: DeskConnections,
    private readonly clock: Clock,
    private readonly ids: IdGenerator,
    @Inject(LOGGER) private readonly logger: Logger,
    @Inject(CONFIG) config: Config,
  ) {
    this.limiter = new RateLimiter(config.messaging.rateLimitPerSession);
    this.idleMs = config.messaging.sessionIdleS * 1000;
  }

  async handle(socket: ChatSocket, raw: string): Promise<void> {
    const message = parseClientMessage(raw);
    if (isRejected(message)) return this.tell(socket, message.error, message.custom);
    if (message.kind !== 'EVENT_TYPE_HEARTBEAT') {
      try {
        this.limiter.take(socket.sessionId);
      } catch {
        return this.tell(socket, SYSTEM_MESSAGES.rateLimited, message.custom);
      }
    }
    const now = this.clock.nowIso();
    switch (message.kind) {
      case 'EVENT_TYPE_HEARTBEAT':
        return this.hub.sendTo(
          socket,
          transient(this.ids.uuid(), 'EVENT_TYPE_HEARTBEAT', now, message.payload, message.custom),
        );
      case 'EVENT_TYPE_USER_TYPING': {
        const event = transient(
          this.ids.uuid(),
          'EVENT_TYPE_USER_TYPING',
          now,
          { state: message.state },
          message.custom,
        );
        this.hub.deliverTransient(socket.sessionId, event, socket);
        this.desk.onUserTyping(socket.sessionId, event);
        return;
      }
      default:
        await this.queue
          .run(socket.sessionId, () => this.command(socket, message))
          .catch((error: unknown) => this.fail(socket, error, message.custom));
    }
  }

  private async command(socket: ChatSocket, message: ClientMessage): Promise<void> {
    const context: CommandContext = { actor: `messaging:${socket.tokenId}`, correlationId: this.ids.uuid() };
    const state = await this.session(socket.sessionId, context);
    switch (message.kind) {
      case 'EVENT_TYPE_REQUEST_SERVICE_AGENT_JOIN':
        if (state.phase === 'open') await this.turns.join(state, context);
        return;
      case 'EVENT_TYPE_USER_MESSAGE':
        return this.userMessage(socket, state, message, context);
      case 'EVENT_TYPE_USER_END_SESSION':
        // the conversation first: SESSION_END goes out once it reads ended (issue 47)
        if (state.phase === 'agent' && state.conversationId)
          await this.turns
            .endConversation(state.conversationId, 'user', context)
            .catch((error: unknown) =>
              this.logger.warn({ err: error }, 'could not end the conversation of an ended session'),
            );
        await this.sessions.execute(
          state.sessionId,
          { type: 'EndSession', reason: 'REASON_USER_END', now: this.clock.nowIso() },
          context,
        );
        return;
    }
  }

  private async userMessage(
    socket: ChatSocket,
    state: SessionState,
    message: Extract<ClientMessage, { kind: 'EVENT_TYPE_USER_MESSAGE' }>,
    context: CommandContext,
  ): Promise<void> {
    const user = { text: message.text, ...(message.custom !== undefined ? { custom: message.custom } : {}) };
    switch (state.phase) {
      case 'open':
        throw new MessagingFailure(
          state.conversationId === null ? SYSTEM_MESSAGES.conversationIdNotFound : SYSTEM_MESSAGES.conversationNotFound,
        );
      case 'agent':
        return this.turns.respond(state, user, context, (event, live) =>
          live ? this.hub.deliverLive(socket.sessionId, event) : this.hub.deliverTransient(socket.sessionId, event),
        );
      default:
        // queued or live: the message is for the person at the desk (who sees the queue's history on accepting)
        try {
          await this.sessions.execute(
            state.sessionId,
            { type: 'RecordUserMessage', user: { messageId: this.ids.uuid(), ...user }, now: this.clock.nowIso() },
            context,
          );
        } catch (error) {
          if (error instanceof DomainError) throw error;
          throw new MessagingFailure(SYSTEM_MESSAGES.failedToForward, error);
        }
    }
  }

  /**
   * The session as stored now, another process's writes included (one indexed read past the cached
   * state): a frame for a session that ended elsewhere is told so before any turn runs. An idle one
   * is expired here if its timer has not run yet.
   */
  private async session(sessionId: string, context: CommandContext): Promise<SessionState> {
    let state: SessionState;
    try {
      state = (await this.sessions.current(sessionId)).state;
    } catch (error) {
      throw new MessagingFailure(SYSTEM_MESSAGES.unableToRetrieveSession, error);
    }
    if (!state.exists || state.phase === 'ended') throw new MessagingFailure(SYSTEM_MESSAGES.sessionNotFound);
    if (isExpired(state, this.clock.nowMs(), this.idleMs)) {
      // the conversation first: SESSION_END goes out once it reads ended (issue 47)
      if (state.phase === 'agent' && state.conversationId)
        await this.turns.endConversation(state.conversationId, 'timeout', context).catch(() => undefined);
      await this.sessions.execute(
        sessionId,
        { type: 'ExpireIfIdle', idleMs: this.idleMs, now: this.clock.nowIso() },
        context,
      );
      throw new MessagingFailure(SYSTEM_MESSAGES.sessionNotFound);
    }
    return state;
  }

  private fail(socket: ChatSocket, error: unknown, custom: unknown): void {
    if (error instanceof MessagingFailure) {
      if (error.cause) this.logger.warn({ err: error.cause, sessionId: socket.sessionId }, error.systemMessage);
      return this.tell(socket, error.systemMessage, custom);
    }
    if (error instanceof DomainError && DOMAIN_MESSAGES[error.code])
      return this.tell(socket, DOMAIN_MESSAGES[error.code], custom);
    this.logger.error({ err: error, sessionId: socket.sessionId }, 'messaging frame failed');
    this.tell(socket, SYSTEM_MESSAGES.encounteredError, custom);
  }

  private tell(socket: ChatSocket, message: string, custom?: unknown): void {
    this.hub.sendTo(socket, systemMessage(this.ids.uuid(), this.clock.nowIso(), message, custom));
  }
}
