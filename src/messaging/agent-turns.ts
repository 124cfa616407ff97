import { Inject, Injectable } from '@nestjs/common';
import type { Environment } from '../agents/agent.events';
import { ConversationEndedError, ConversationNotFoundError } from '../conversations/conversation-errors';
import { ConversationEngine } from '../conversations/engine/conversation-engine';
import type { TurnResult } from '../conversations/engine/answers';
import {
  conversationStream,
  type EndReason as ConversationEndReason,
  type TurnData,
} from '../conversations/conversation.events';
import { EVENT_STORE, type EventStore, type RecordedEvent } from '../event-store/event-store.port';
import { AGENT_DIRECTORY, type AgentDirectory } from '../platform/auth/agent-directory';
import { Clock } from '../platform/clock/clock';
import { CONFIG, type Config } from '../platform/config/config';
import type { CommandContext } from '../commands/command-context';
import { DomainError } from '../platform/errors/domain-error';
import { derivedUuid } from '../platform/ids/derived-id';
import { IdGenerator } from '../platform/ids/ids';
import { ReadModels } from '../read-models/read-models.service';
import { agentsQueries, type AgentsQueries } from '../../projections/agents/queries';
import {
  messagingSessionsQueries,
  type MessagingSessionsQueries,
  MESSAGING_SESSIONS_READ_MODEL,
} from '../../projections/messaging-sessions/queries';
import { ConnectorDirectory } from './connectors';
import { DeskAvailability } from './desk/desk-availability';
import { SessionCommands } from './session-commands';
import type { SessionState, TurnOutcome } from './session.decider';
import { SYSTEM_MESSAGES } from './system-messages';
import { chunkText, transient, type WireEvent } from './wire';

/** An answer not ready after this long is announced with SERVICE_AGENT_THINKING. */
const THINKING_AFTER_MS = 150;

/** A turn that could not be served; the client is told `systemMessage` (interface.md's table). */
export class MessagingFailure extends Error {
  constructor(
    readonly systemMessage: string,
    cause?: unknown,
  ) {
    super(systemMessage, { cause });
    this.name = 'MessagingFailure';
  }
}

/**
 * Where transient events of a turn (thinking, chunks) go: the session's sockets on this process.
 * `live`: a piece of the model's answer as it writes it, sent at once rather than held for the
 * stored answer (held-chunks.ts), so the first words show while the rest is written.
 */
export type TransientSink = (event: WireEvent, live?: boolean) => void;

/**
 * The service agent on a messaging session: the web chat's adapter over the conversation engine.
 * Its conversation (channel WEBCHAT, the connector's environment, the deployment active when it
 * starts) is recorded like every channel's, so the Conversations API shows it; the session stream
 * records what the user saw.
 */
@Injectable()
export class AgentTurns {
  private readonly agentRows: AgentsQueries;
  private readonly sessionRows: MessagingSessionsQueries;
  /** MESSAGING_MAX_CONCURRENT_TURNS */
  private readonly maxConcurrentTurns: number;
  private inFlight = 0;

  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    private readonly clock: Clock,
    private readonly ids: IdGenerator,
    private readonly engine: ConversationEngine,
    private readonly sessions: SessionCommands,
    private readonly connectors: ConnectorDirectory,
    @Inject(AGENT_DIRECTORY) private readonly agents: AgentDirectory,
    private readonly desk: DeskAvailability,
    private readonly readModels: ReadModels,
    @Inject(CONFIG) config: Config,
  ) {
    this.agentRows = agentsQueries(readModels);
    this.sessionRows = messagingSessionsQueries(readModels);
    this.maxConcurrentTurns = config.messaging.maxConcurrentTurns;
  }

  get turnsInFlight(): number {
    return this.inFlight;
  }

  /** REQUEST_SERVICE_AGENT_JOIN: starts a conversation and greets. */
  async join(session: SessionState, context: CommandContext): Promise<void> {
    return this.gated(async () => {
      const connector = await this.connectors.get(session.connectorId);
      if (!connector || (await this.agents.accountOf(connector.agentId)) === null)
        throw new MessagingFailure(SYSTEM_MESSAGES.connectorNotFound);
      const environment = connector.environment as Environment;
      const { conversationId, deploymentId, agentName, greeting } = await this.startConversation(
        connector.agentId,
        environment,
        context,
      ).catch((error: unknown) => {
        throw new MessagingFailure(SYSTEM_MESSAGES.unableToStart, error);
      });
      const now = this.clock.nowIso();
      await this.sessions.execute(
        session.sessionId,
        {
          type: 'JoinServiceAgent',
          conversationId,
          deploymentId,
          agentName,
          greeting: greeting ? { messageId: this.ids.uuid(), text: greeting, responseSuggestions: [] } : null,
          now,
        },
        context,
      );
    });
  }

  private async startConversation(agentId: string, environment: Environment, context: CommandContext) {
    const conversationId = `WEBCHAT-${this.ids.uuid()}`;
    const started = await this.engine.start({ conversationId, agentId, environment, channel: 'WEBCHAT' }, context);
    const agentName = (await this.agentRows.nameOf(agentId)).row?.name ?? 'Assistant';
    return { conversationId, deploymentId: started.deploymentId, agentName, greeting: started.greeting.agentResponse };
  }

  /**
   * USER_MESSAGE while the service agent has the conversation: runs the turn, then records it on
   * the conversation and the session together (one group commit, so one fsync for both).
   */
  async respond(
    session: SessionState,
    user: { text: string; custom?: unknown },
    context: CommandContext,
    sink: TransientSink,
  ): Promise<void> {
    return this.gated(async () => {
      const conversationId = session.conversationId!;
      const now = this.clock.nowIso();
      // Shown only when the answer is slow to come (a model call): an instant answer needs no
      // indicator, and at a thousand messages a second the extra frame is a tenth of the socket work.
      const thinking = setTimeout(
        () => sink(transient(this.ids.uuid(), 'EVENT_TYPE_SERVICE_AGENT_THINKING', this.clock.nowIso(), {})),
        THINKING_AFTER_MS,
      );
      const messageId = this.ids.uuid();
      let streamed = 0;
      const chunk = (text: string, isComplete: boolean, live: boolean) =>
        sink(
          transient(this.ids.uuid(), 'EVENT_TYPE_SERVICE_AGENT_MESSAGE_CHUNK', this.clock.nowIso(), {
            message_id: messageId,
            text,
            chunk_index: streamed++,
            is_complete: isComplete,
          }),
          live,
        );
      // the model's text goes out as it comes: the first piece stops the thinking indicator
      const onChunk = session.streamingEnabled
        ? (text: string) => {
            clearTimeout(thinking);
            chunk(text, false, true);
          }
        : undefined;
      // The session records what the user saw, beside the conversation's turn (one group commit).
      let answered = false;
      const recordOnSession = async (result: TurnResult) => {
        answered = true;
        clearTimeout(thinking);
        const text = result.turn.agentResponse;
        if (session.streamingEnabled && streamed > 0) chunk('', true, true);
        else if (session.streamingEnabled) {
          // an answer that was not written piece by piece (no model) is sent in pieces after the fact
          const pieces = chunkText(text);
          pieces.forEach((piece, i) => chunk(piece, i === pieces.length - 1, false));
        }
        const outcome = await this.outcomeOf(session, result.effects);
        await this.sessions.execute(
          session.sessionId,
          {
            type: 'RecordAgentTurn',
            conversationId,
            user: {
              messageId: this.ids.uuid(),
              text: user.text,
              ...(user.custom !== undefined ? { custom: user.custom } : {}),
            },
            reply: { messageId, text, responseSuggestions: [] },
            outcome,
            now,
          },
          context,
        );
      };
      try {
        await this.engine.turn(
          {
            conversationId,
            input: {
              text: user.text,
              metadata: user.custom !== undefined ? { custom: user.custom } : {},
              receivedAt: now,
            },
            onChunk,
            alongside: recordOnSession,
          },
          context,
        );
      } catch (error) {
        if (!answered && (error instanceof ConversationNotFoundError || error instanceof ConversationEndedError))
          throw new MessagingFailure(SYSTEM_MESSAGES.conversationNotFound);
        if (!answered) throw new MessagingFailure(SYSTEM_MESSAGES.troubleResponding, error);
        // not stored: its chunks (if any) wait in the hub for a message that never comes (held-chunks.ts)
        if (error instanceof DomainError) throw error;
        throw new MessagingFailure(SYSTEM_MESSAGES.encounteredError, error);
      } finally {
        clearTimeout(thinking);
      }
    });
  }

  /**
   * A delayed response (the agent's answer to an external event, recorded on the conversation by
   * external-events.process-manager.ts) goes to the session the conversation runs on, with what
   * the turn led to (an end, a handoff); the conversation then records it as delivered. Keyed by
   * the turn's event, so a replay pushes nothing twice. A session that moved on (ended, handed
   * off, joined anew) takes nothing: the answer stays on the conversation's record.
   */
  async pushDelayed(event: RecordedEvent<TurnData>): Promise<void> {
    const conversationId = event.streamId.slice(conversationStream('').length);
    // the join that tied the session to the conversation precedes the turn in the log
    await this.readModels.waitFor(event.position, [MESSAGING_SESSIONS_READ_MODEL]);
    const sessionId = (await this.sessionRows.sessionOf(conversationId)).row?.id;
    if (!sessionId) return;
    const { state: session } = await this.sessions.current(sessionId);
    if (session.phase !== 'agent' || session.conversationId !== conversationId) return;
    const outcome = await this.outcomeOf(session, await this.effectsOf(event));
    const context: CommandContext = {
      actor: 'system:messaging',
      correlationId: event.metadata.correlationId,
      causationId: event.id,
      idempotencyKey: `delayed:${event.id}`,
    };
    const reply = {
      messageId: derivedUuid(`delayed-message:${event.id}`),
      text: event.data.agentResponse,
      responseSuggestions: [],
    };
    const pushed = await this.sessions.execute(
      sessionId,
      { type: 'PushDelayedAgentMessage', conversationId, reply, outcome, now: this.clock.nowIso() },
      context,
    );
    if (pushed.events.length === 0) return;
    await this.engine.acknowledgeDelayed(conversationId, event.data.turnIndex, {
      ...context,
      idempotencyKey: `delayed:ack:${event.id}`,
    });
  }

  /** What a turn led to: the events its command appended after it (same cause), before any later turn. */
  private async effectsOf(
    turn: RecordedEvent,
  ): Promise<{ handoff: { destination: string; reason: string } | null; ended: boolean }> {
    const after = await this.store.readStream(turn.streamId, { fromRevision: turn.revision + 1n, maxCount: 32 });
    const effects = { handoff: null as { destination: string; reason: string } | null, ended: false };
    for (const e of after) {
      if (e.type === 'TurnRecorded' || e.metadata.causationId !== turn.metadata.causationId) break;
      if (e.type === 'HandoffRequested') effects.handoff = e.data as { destination: string; reason: string };
      if (e.type === 'ConversationEnded') effects.ended = true;
    }
    return effects;
  }

  /** Ends the service agent's conversation with the session (no-op when it already ended). */
  async endConversation(conversationId: string, reason: ConversationEndReason, context: CommandContext): Promise<void> {
    await this.engine.end(conversationId, reason, context);
  }

  private async outcomeOf(
    session: SessionState,
    effects: { handoff: { destination: string; reason: string } | null; ended: boolean },
  ): Promise<TurnOutcome> {
    if (effects.handoff) {
      const { destination, reason } = effects.handoff;
      const failure = await this.desk.check(session.accountId, session.agentId, destination, this.clock.nowMs());
      return { kind: 'handoff', handoffId: this.ids.uuid(), destination, reason, failure };
    }
    return effects.ended ? { kind: 'ended' } : { kind: 'continue' };
  }

  /** Past `maxConcurrentTurns` turns at once, new ones are refused at once rather than queued behind them. */
  private async gated<T>(work: () => Promise<T>): Promise<T> {
    if (this.inFlight >= this.maxConcurrentTurns) throw new MessagingFailure(SYSTEM_MESSAGES.highLoad);
    this.inFlight++;
    try {
      return await work();
    } finally {
      this.inFlight--;
    }
  }
}
