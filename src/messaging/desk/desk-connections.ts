import { Inject, Injectable } from '@nestjs/common';
import type { Logger } from 'pino';
import { WebSocket } from 'ws';
import { EVENT_STORE, type EventStore, type RecordedEvent } from '../../event-store/event-store.port';
import { andThen, type Awaitable } from '../../platform/awaitable';
import { KeyAuthenticator } from '../../platform/auth/key-authenticator';
import { keyCanReachAgent, type KeyRecord } from '../../platform/auth/key-principal';
import { Clock } from '../../platform/clock/clock';
import { atDeadline } from '../../platform/clock/deadline';
import type { CommandContext } from '../../commands/command-context';
import { DomainError } from '../../platform/errors/domain-error';
import { IdGenerator } from '../../platform/ids/ids';
import { LOGGER } from '../../platform/logging/logger';
import { CLOSE_CREDENTIAL_EXPIRED, CLOSE_CREDENTIAL_REVOKED, type CredentialClose } from '../close-codes';
import { MAX_BUFFERED_BYTES } from '../limits';
import { SessionCommands } from '../session-commands';
import { sessionStream } from '../session.events';
import { SocketHub } from '../socket-hub';
import { toWire, transient, type WireEvent } from '../wire';
import type { DeskAdmitted } from './desk-admission';
import { DeskHub, type DeskSocket } from './desk-hub';
import { parseDeskFrame, type DeskCommand } from './desk-protocol';
import { DeskQueue } from './desk-queue';

/** Session events that change the queue a desk sees. */
const QUEUE_EVENTS = new Set([
  'MessagingHandoffTriggered',
  'MessagingHandoffFailed',
  'MessagingHandoffTimedOut',
  'MessagingHandoffAccepted',
  'MessagingSessionEnded',
  'MessagingServiceAgentJoined',
]);

const DESK_ERRORS: Record<string, string> = {
  HANDOFF_NOT_QUEUED: 'this session is not waiting for a live agent (another agent may have taken it)',
  NOT_THE_LIVE_AGENT: 'you do not hold this session',
  SESSION_NOT_FOUND: 'session not found',
};

/**
 * What an admitted desk socket does (`/desk/ws`, see DeskAdmission). A human agent sees the
 * queue of the sessions its key reaches, accepts one (first come, first served: the session
 * decider refuses a second accept), chats, and leaves. What the user says reaches every desk
 * socket of the key that holds the session, from the same feed of stored events as the chat
 * sockets.
 *
 * A socket lives no longer than its key: it closes when the key is deleted (the api-keys read
 * model's event), when the key's `expiresAt` passes on the platform clock, and whenever a frame
 * finds the key no longer usable; a frame arriving once the close has begun is dropped unread.
 */
@Injectable()
export class DeskConnections {
  private readonly open = new WeakMap<WebSocket, { socket: DeskSocket; admitted: DeskAdmitted }>();

  constructor(
    private readonly keys: KeyAuthenticator,
    private readonly hub: DeskHub,
    /** the chat sockets, for what the desk says to a session */
    private readonly chats: SocketHub,
    private readonly queue: DeskQueue,
    private readonly sessions: SessionCommands,
    @Inject(EVENT_STORE) private readonly store: EventStore,
    private readonly clock: Clock,
    private readonly ids: IdGenerator,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  /** One client frame, as text. */
  frame(ws: WebSocket, raw: string): void {
    const connection = this.open.get(ws);
    // a frame that races the close (the key went while it was in flight) is never acted on
    if (!connection || connection.socket.ended) return;
    const { socket, admitted } = connection;
    this.onFrame(socket, admitted.key, admitted.keyValue, raw).catch((error: unknown) => {
      this.logger.error({ err: error }, 'desk frame failed');
      socket.send(JSON.stringify({ type: 'ERROR', message: 'encountered an error' }));
    });
  }

  /** After the api-keys read model applied a batch: a deleted key's sockets close at once, before the DELETE answers. */
  onKeyEvents(batch: RecordedEvent[]): void {
    if (this.hub.empty) return;
    for (const event of batch) {
      if (event.type !== 'ApiKeyDeleted') continue;
      for (const socket of this.hub.socketsOf((event.data as { keyId: string }).keyId))
        socket.end(CLOSE_CREDENTIAL_REVOKED.code, CLOSE_CREDENTIAL_REVOKED.reason);
    }
  }

  /** Feed listener: events of sessions held by a key with sockets here go to those sockets. */
  onSessionEvents(sessionId: string, events: WireEvent[], recorded: RecordedEvent[]): void {
    if (this.hub.empty) return;
    recorded.forEach((event, i) => {
      if (event.type === 'MessagingHandoffAccepted')
        this.hub.hold(sessionId, (event.data as { liveAgentId: string }).liveAgentId);
      const keyId = this.hub.holder(sessionId);
      if (!keyId) return;
      this.hub.sendToKey(keyId, { type: 'SESSION_EVENT', session_id: sessionId, event: events[i] });
      if (event.type === 'MessagingLiveAgentLeft' || event.type === 'MessagingSessionEnded') this.hub.drop(sessionId);
    });
  }

  /** User typing: shown to the desk agent holding the session on this process. */
  onUserTyping(sessionId: string, event: WireEvent): void {
    const keyId = this.hub.holder(sessionId);
    if (keyId) this.hub.sendToKey(keyId, { type: 'SESSION_EVENT', session_id: sessionId, event });
  }

  /** After the messaging-sessions read model applied a batch: shows each desk its queue if it changed. */
  onReadModelApplied(batch: RecordedEvent[]): void {
    if (this.hub.empty || !batch.some((event) => QUEUE_EVENTS.has(event.type))) return;
    for (const socket of this.hub.sockets()) this.showQueue(socket, 'QUEUE_UPDATED');
  }

  opened(ws: WebSocket, admitted: DeskAdmitted): void {
    const { key, keyValue, agentName } = admitted;
    let ended = false;
    let cancelExpiry = () => undefined as void;
    const socket: DeskSocket = {
      keyId: key.id,
      accountId: key.accountId,
      agents: key.agents,
      agentName,
      lastQueue: '',
      send: (json) => {
        if (ws.readyState !== WebSocket.OPEN) return;
        if (ws.bufferedAmount > MAX_BUFFERED_BYTES) return ws.terminate();
        ws.send(json);
      },
      get ended() {
        return ended;
      },
      end: (code, reason) => {
        if (ended) return;
        ended = true;
        cancelExpiry();
        this.hub.remove(socket);
        ws.close(code, reason);
      },
    };
    this.hub.add(socket);
    cancelExpiry = atDeadline(this.clock, key.expiresAtMs, () =>
      socket.end(CLOSE_CREDENTIAL_EXPIRED.code, CLOSE_CREDENTIAL_EXPIRED.reason),
    );
    this.open.set(ws, { socket, admitted });
    ws.once('close', () => {
      ended = true;
      cancelExpiry();
      this.hub.remove(socket);
    });
    // a key deleted while the handshake was under way was announced before this socket was in the hub
    this.keyStillUsable(socket, keyValue)
      .then((usable) => usable && this.ready(socket, key, agentName))
      .catch((error: unknown) => this.logger.error({ err: error }, 'desk could not re-check its key'));
  }

  private ready(socket: DeskSocket, key: KeyRecord, agentName: string): void {
    this.logFailure(
      andThen(this.queue.heldBy(key.id), (held) => {
        for (const sessionId of held) this.hub.hold(sessionId, key.id);
        socket.send(JSON.stringify({ type: 'DESK_READY', agent_id: key.id, agent_name: agentName, sessions: held }));
        this.showQueue(socket, 'QUEUE_UPDATED');
      }),
    );
  }

  /**
   * Re-checks the key behind an open socket (deleted, expired, or no longer a desk key) and ends
   * the socket with the matching close code if it is not usable. Mostly a lookup in the
   * authenticator's memory; a query only after a key event emptied it.
   */
  private async keyStillUsable(socket: DeskSocket, keyValue: string): Promise<boolean> {
    if (socket.ended) return false;
    let close: CredentialClose | null = null;
    try {
      const key = await this.keys.authenticate(keyValue, 'api_key');
      if (key.id !== socket.keyId || !key.permissions.includes('desk')) close = CLOSE_CREDENTIAL_REVOKED;
    } catch (error) {
      if (!(error instanceof DomainError) || error.status !== 401) throw error;
      close = error.code === 'API_KEY_EXPIRED' ? CLOSE_CREDENTIAL_EXPIRED : CLOSE_CREDENTIAL_REVOKED;
    }
    if (close) socket.end(close.code, close.reason);
    return !socket.ended;
  }

  private async onFrame(socket: DeskSocket, key: KeyRecord, keyValue: string, raw: string): Promise<void> {
    if (!(await this.keyStillUsable(socket, keyValue))) return;
    const command = parseDeskFrame(raw);
    if ('error' in command)
      return socket.send(
        JSON.stringify({
          type: 'ERROR',
          message: command.error,
          ...(command.sessionId ? { session_id: command.sessionId } : {}),
        }),
      );
    const context: CommandContext = { actor: key.id, correlationId: this.ids.uuid() };
    try {
      await this.run(socket, key, command, context);
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      socket.send(
        JSON.stringify({
          type: 'ERROR',
          session_id: command.sessionId,
          message: DESK_ERRORS[error.code] ?? error.message,
        }),
      );
    }
  }

  private async run(socket: DeskSocket, key: KeyRecord, command: DeskCommand, context: CommandContext): Promise<void> {
    const { sessionId } = command;
    const { state } = await this.sessions.current(sessionId);
    // another account's session, or an agent outside the key's scope, is as good as absent
    if (!state.exists || state.accountId !== key.accountId || !keyCanReachAgent(key, state.agentId))
      throw new DomainError('SESSION_NOT_FOUND', 'session not found', 404);
    const now = this.clock.nowIso();
    switch (command.type) {
      case 'ACCEPT': {
        await this.sessions.execute(
          sessionId,
          { type: 'AcceptHandoff', liveAgentId: key.id, agentName: socket.agentName, now },
          context,
        );
        this.hub.hold(sessionId, key.id);
        const history = (await this.store.readStream(sessionStream(sessionId))).map(toWire);
        this.hub.sendToKey(key.id, {
          type: 'SESSION_ACCEPTED',
          session_id: sessionId,
          agent_id: state.agentId,
          history,
        });
        return;
      }
      case 'MESSAGE':
        await this.sessions.execute(
          sessionId,
          { type: 'SendLiveAgentMessage', liveAgentId: key.id, messageId: this.ids.uuid(), text: command.text, now },
          context,
        );
        return;
      case 'TYPING':
        if (state.phase !== 'live' || state.liveAgent?.id !== key.id)
          throw new DomainError('NOT_THE_LIVE_AGENT', 'you do not hold this session', 409);
        this.chats.deliverTransient(
          sessionId,
          transient(this.ids.uuid(), 'EVENT_TYPE_LIVE_AGENT_TYPING', now, {
            agent_name: state.liveAgent.name,
            state: command.state,
          }),
        );
        return;
      case 'LEAVE':
        await this.sessions.execute(sessionId, { type: 'LeaveAsLiveAgent', liveAgentId: key.id, now }, context);
        return;
    }
  }

  private showQueue(socket: DeskSocket, type: 'QUEUE_UPDATED'): void {
    this.logFailure(
      andThen(this.queue.queued(socket.accountId, socket.agents), (queue) => {
        const json = JSON.stringify(queue);
        if (json === socket.lastQueue) return;
        socket.lastQueue = json;
        socket.send(JSON.stringify({ type, queue }));
      }),
    );
  }

  /** A read that answered later (PostgreSQL) and failed: logged, as a synchronous one would throw to its caller. */
  private logFailure(work: Awaitable<void>): void {
    if (work instanceof Promise)
      work.catch((error: unknown) => this.logger.error({ err: error }, 'desk could not read the queue'));
  }
}
