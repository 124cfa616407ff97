import { Inject, Injectable } from '@nestjs/common';
import type { Environment } from '../../agents/agent.events';
import type { ServedContent } from '../../agents/deployment-content';
import { Clock } from '../../platform/clock/clock';
import type { CommandContext } from '../../commands/command-context';
import type { CommandHandler } from '../../commands/command-handler';
import { Commands } from '../../commands/commands';
import { KeyedQueue } from '../../commands/keyed-queue';
import { DomainError } from '../../platform/errors/domain-error';
import { IdGenerator } from '../../platform/ids/ids';
import { ANSWERS, type Answers, type OnChunk, type TurnInput, type TurnResult } from './answers';
import {
  conversationDecider,
  type ConversationCommand,
  type ConversationState,
  type TurnEffects,
} from '../conversation.decider';
import {
  conversationStream,
  type ConversationAnalysedData,
  type ConversationEvent,
  type EndReason,
  type ExternalEventReceivedData,
  type TurnData,
} from '../conversation.events';
import {
  ConversationEndedError,
  ConversationEnvironmentError,
  ConversationIdleError,
  ConversationNotFoundError,
} from '../conversation-errors';
import {
  agentLineTurn,
  initialStateOf,
  notConnectedCommand,
  startCommand,
  startWithTurnCommand,
  NO_EFFECTS,
  type AgentLine,
  type Opening,
} from './conversation-opening';

/** What the engine reads of a deployment (DeploymentContent in the app, bound by ConversationsModule). */
export const CONTENT_SOURCE = Symbol('ContentSource');
export interface ContentSource {
  activeDeploymentId(agentId: string, environment: Environment): Promise<string | null>;
  ofDeployment(agentId: string, deploymentId: string): Promise<ServedContent>;
}

export interface StartRequest extends Omit<Opening, 'startedAt'> {
  agentId: string;
  /** the deployment to run on; the environment's active one when absent */
  deploymentId?: string;
  /** the platform clock's now when absent */
  startedAt?: string;
  /** a first line of the channel's own instead of the agent's greeting */
  line?: AgentLine;
}

/** A call that failed before anyone answered, as its conversation records it. */
export interface NotConnectedRequest extends Omit<StartRequest, 'line'> {
  accountId: string;
  /** when the call failed; the conversation ends then */
  endedAt: string;
  /** the call API's own words: its status (`failure`, `failed`) and why */
  outcome: { callStatus: string; failureReason: string };
}

/** What the user said (or keyed) for one turn. */
export interface UserInput {
  text: string;
  metadata?: Record<string, unknown>;
  /** the conversation's language when absent */
  asrLangCode?: string;
  ttsLangCode?: string;
  /** the platform clock's now when absent */
  receivedAt?: string;
}

export interface StartedConversation {
  conversationId: string;
  deploymentId: string;
  content: ServedContent;
  greeting: Omit<TurnData, 'turnIndex'>;
  state: ConversationState;
}

type AgentTurn = { turn: Omit<TurnData, 'turnIndex'>; effects: TurnEffects };

/** Which conversation a channel's request may reach, and what it must be to take a turn. */
export interface OpenConversation {
  conversationId: string;
  /** the caller's agent: another agent's conversation is not found */
  agentId?: string;
  /** the environment the client talks to: a conversation running in another is refused */
  environment?: string;
  /** idle longer than this (platform clock), the conversation is ended ('timeout') and the request refused */
  idleS?: number;
}

/** One user turn as a channel asks for it. */
export interface TurnRequest extends OpenConversation {
  input: UserInput;
  /** a delayed response not yet handed out answers this request instead, its input left unanswered (debug chat, contract §7) */
  takesDelayed?: boolean;
  /** the model's text as it writes it */
  onChunk?: OnChunk;
  /** the channel's own record of the turn, appended beside the conversation's (they share a group commit) */
  alongside?: (result: TurnResult) => Promise<unknown>;
}

export type TurnOutcome =
  | { kind: 'answered'; turn: Omit<TurnData, 'turnIndex'>; effects: TurnEffects; state: ConversationState }
  /** a delayed response handed out now, as `takesDelayed` asked */
  | { kind: 'delayed'; turn: TurnData; state: ConversationState };

/** No deployment is active in the environment a conversation asked for; each channel says so its own way. */
export class NoActiveDeploymentError extends DomainError {
  constructor(readonly environment: string) {
    super('NO_ACTIVE_DEPLOYMENT', `no deployment is active in ${environment}; merge or promote one first`, 400);
  }
}

/**
 * The one place a conversation is started, answered, ended and handed its delayed responses, on
 * every channel (debug chat, web chat, SMS, calls). A channel translates its transport into these
 * calls and their results back; what is recorded, and how, is decided here and by the
 * conversation decider, so every channel's audit record has one shape.
 */
@Injectable()
export class ConversationEngine {
  private readonly newId = () => this.ids.uuid();
  /**
   * The one writer of conversation streams in the process, for every channel and for the
   * external-events binding: its cache holds every append made here, so a channel checks a turn
   * against the cached state without reading and still sees a delayed response bound here.
   */
  private readonly conversations: CommandHandler<ConversationState, ConversationCommand, ConversationEvent>;
  /**
   * One request at a time per conversation, whichever channel it came from: read the state, run
   * the agent, append, in arrival order (a second message waits for the first one's answer).
   */
  private readonly requests = new KeyedQueue();

  constructor(
    commands: Commands,
    private readonly clock: Clock,
    private readonly ids: IdGenerator,
    @Inject(CONTENT_SOURCE) private readonly deployments: ContentSource,
    @Inject(ANSWERS) private readonly runtime: Answers,
  ) {
    // web chat alone keeps thousands of sessions busy at once
    this.conversations = commands.for(conversationDecider, { cache: { capacity: 20_000 } });
  }

  /** Starts a conversation on a deployment (the environment's active one unless named) with the agent's greeting. */
  async start(request: StartRequest, context: CommandContext): Promise<StartedConversation> {
    const content = await this.contentFor(request);
    const opening = { ...request, startedAt: request.startedAt ?? this.clock.nowIso() };
    const { command, greeting } = startCommand(this.runtime, content, opening, this.newId, request.line);
    const after = await this.execute(request.conversationId, command, context);
    return {
      conversationId: request.conversationId,
      deploymentId: content.deploymentId,
      content,
      greeting: greeting.turn,
      state: after.state,
    };
  }

  /**
   * Records a call that never connected as a conversation that started and ended with no agent
   * turn (contract §2: its id was handed out, so it must read). It names the deployment that would
   * have answered (the environment's active one unless named), or none when there is none.
   */
  async recordNotConnected(request: NotConnectedRequest, context: CommandContext): Promise<ConversationState> {
    const environment = request.environment as Environment;
    const deploymentId =
      request.deploymentId ?? (await this.deployments.activeDeploymentId(request.agentId, environment));
    const deployment = deploymentId
      ? await this.deployments.ofDeployment(request.agentId, deploymentId)
      : { accountId: request.accountId, agentId: request.agentId, deploymentId: '', version: 0, languageCode: '' };
    const opening = { ...request, startedAt: request.startedAt ?? this.clock.nowIso() };
    const command = notConnectedCommand(deployment, opening, request.outcome, request.endedAt);
    return (await this.execute(request.conversationId, command, context)).state;
  }

  /** Starts a conversation the user opens with a message (inbound SMS): its first turn answers it. */
  async startWithTurn(
    request: StartRequest & { deploymentId: string },
    input: UserInput,
    context: CommandContext,
  ): Promise<TurnResult> {
    const content = await this.deployments.ofDeployment(request.agentId, request.deploymentId);
    const opening = { ...request, startedAt: request.startedAt ?? this.clock.nowIso() };
    const result = await this.answer(content, initialStateOf(opening, content), content.languageCode, input);
    await this.execute(request.conversationId, startWithTurnCommand(content, opening, result), context);
    return result;
  }

  /** The conversation as this process last saw it (no read when cached): for checking a request before a command. */
  peek(conversationId: string): Promise<ConversationState> {
    return this.conversations.peek(conversationStream(conversationId));
  }

  /** The conversation with everything appended to it so far (reads what came after the cached state). */
  async current(conversationId: string): Promise<ConversationState> {
    return (await this.conversations.load(conversationStream(conversationId))).state;
  }

  /**
   * The agent's answer to the user's input, not yet recorded (a channel may record it with its own
   * events). `onChunk` gets the model's text as it writes it, for a channel that shows it at once.
   */
  async think(conversation: ConversationState, input: UserInput, onChunk?: OnChunk): Promise<TurnResult> {
    const content = await this.deployments.ofDeployment(conversation.agentId, conversation.deploymentId);
    return this.answer(content, conversation.state, conversation.language, input, onChunk);
  }

  /**
   * `think` as an async iterable of the answer's text pieces (the model's as it writes them, else
   * the whole answer once) beside the turn to record: for channels that speak while the model
   * writes (voice).
   */
  async thinkStream(
    conversation: ConversationState,
    input: UserInput,
  ): Promise<{ chunks: AsyncIterable<string>; result: Promise<TurnResult> }> {
    const content = await this.deployments.ofDeployment(conversation.agentId, conversation.deploymentId);
    return this.runtime.stream(content, this.turnInput(conversation.state, conversation.language, input));
  }

  /** Records a turn `think` produced, with what it led to (state, metrics, a handoff, an end). */
  record(conversationId: string, turn: AgentTurn, context: CommandContext) {
    return this.execute(conversationId, { type: 'RecordTurn', turn: turn.turn, effects: turn.effects }, context);
  }

  /**
   * One user turn, as every request-driven channel takes it (debug chat, the Chat API, web chat):
   * the conversation is checked as the request says, the agent answers, the turn is recorded.
   * Refusals are typed (conversation-errors.ts): a channel translates them into its own words.
   */
  turn(request: TurnRequest, context: CommandContext): Promise<TurnOutcome> {
    return this.requests.run(request.conversationId, async () => {
      const conversation = await this.peek(request.conversationId);
      if (!conversation.exists || (request.agentId !== undefined && conversation.agentId !== request.agentId))
        throw new ConversationNotFoundError();
      const pending = conversation.pendingDelayed[0];
      if (request.takesDelayed && pending && this.inEnvironment(conversation, request)) {
        const after = await this.acknowledgeDelayed(request.conversationId, pending.turnIndex, context);
        return { kind: 'delayed', turn: pending, state: after.state };
      }
      const now = await this.stillOpen(conversation, request, context);
      const result = await this.think(conversation, { receivedAt: now, ...request.input }, request.onChunk);
      const beside = request.alongside?.(result);
      const [after] = await Promise.all([this.record(request.conversationId, result, context), beside]);
      return { kind: 'answered', turn: result.turn, effects: result.effects, state: after.state };
    });
  }

  /** One user turn on a conversation the caller already knows (an inbound call's): `turn` with nothing else to check. */
  async respond(
    conversationId: string,
    input: UserInput,
    context: CommandContext,
  ): Promise<{ turn: Omit<TurnData, 'turnIndex'>; state: ConversationState }> {
    const outcome = await this.turn({ conversationId, input }, context);
    return { turn: outcome.turn, state: outcome.state };
  }

  /** Ends a conversation a user closes, after the same checks as a turn (one idle too long ends as 'timeout' instead). */
  close(request: OpenConversation, context: CommandContext): Promise<ConversationState> {
    return this.requests.run(request.conversationId, async () => {
      const conversation = await this.peek(request.conversationId);
      if (!conversation.exists || (request.agentId !== undefined && conversation.agentId !== request.agentId))
        throw new ConversationNotFoundError();
      const now = await this.stillOpen(conversation, request, context);
      return (await this.execute(request.conversationId, { type: 'EndConversation', reason: 'user', now }, context))
        .state;
    });
  }

  private inEnvironment(conversation: ConversationState, request: OpenConversation): boolean {
    return request.environment === undefined || request.environment === conversation.environment;
  }

  /** Refuses a request on a conversation that ended, runs elsewhere or sat idle too long (ending it); else now. */
  private async stillOpen(
    conversation: ConversationState,
    request: OpenConversation,
    context: CommandContext,
  ): Promise<string> {
    if (conversation.ended) throw new ConversationEndedError();
    if (!this.inEnvironment(conversation, request))
      throw new ConversationEnvironmentError(conversation.environment, request.environment!);
    const now = this.clock.now();
    if (request.idleS !== undefined && now.getTime() - Date.parse(conversation.lastActivityAt) > request.idleS * 1000) {
      await this.end(request.conversationId, 'timeout', context, now.toISOString());
      throw new ConversationIdleError(request.idleS);
    }
    return now.toISOString();
  }

  /** A line the channel says in the agent's name without a user message (an SMS idle warning). */
  async say(conversationId: string, line: AgentLine, at: string, context: CommandContext): Promise<void> {
    const conversation = await this.current(conversationId);
    if (!conversation.exists || conversation.ended) return;
    const content = await this.deployments.ofDeployment(conversation.agentId, conversation.deploymentId);
    const turn = agentLineTurn(this.runtime, content, conversation.state, at, this.newId, line);
    await this.record(conversationId, { turn, effects: NO_EFFECTS }, context);
  }

  /** Ends the conversation; one that already ended, or never started, is left as it is. */
  async end(
    conversationId: string,
    reason: EndReason,
    context: CommandContext,
    at = this.clock.nowIso(),
  ): Promise<ConversationState | null> {
    try {
      return (await this.execute(conversationId, { type: 'EndConversation', reason, now: at }, context)).state;
    } catch (error) {
      if (error instanceof ConversationNotFoundError) return null;
      throw error;
    }
  }

  /**
   * Records that the conversation's personal data was erased (contract §24), once; the key store
   * has destroyed its key first. The event's position, or null when it was recorded before.
   */
  async erase(conversationId: string, context: CommandContext, at = this.clock.nowIso()) {
    return this.execute(conversationId, { type: 'EraseConversation', now: at, by: context.actor }, context);
  }

  /** Marks a delayed response (the agent's answer to an external event) as handed to the user. */
  acknowledgeDelayed(conversationId: string, turnIndex: number, context: CommandContext) {
    return this.execute(
      conversationId,
      { type: 'AcknowledgeDelayedResponse', turnIndex, now: this.clock.nowIso() },
      context,
    );
  }

  /**
   * Binds an awaited external event: its payload goes into state and, while the conversation is
   * open, `respond` makes the agent's delayed response to it. False when there is nothing to bind
   * (no such conversation, or the event was bound before).
   */
  async receiveExternalEvent(
    conversationId: string,
    event: Omit<ExternalEventReceivedData, 'agentTurn'>,
    /** the payload's state form, built only when there is something to bind (replays are common) */
    payloadOf: () => unknown,
    respond: (content: ServedContent, state: Record<string, unknown>, language: string) => AgentTurn,
    context: CommandContext,
  ): Promise<boolean> {
    const conversation = await this.current(conversationId);
    if (!conversation.exists || conversation.received[event.eventId]) return false;
    const payload = payloadOf();
    let response: AgentTurn | null = null;
    // a draft chat whose branch was merged or deleted since has no content to answer with: the payload is still bound
    const content =
      conversation.ended === null
        ? await this.deployments
            .ofDeployment(conversation.agentId, conversation.deploymentId)
            .catch((error: unknown) => {
              if (error instanceof DomainError && conversation.environment === 'draft') return null;
              throw error;
            })
        : null;
    if (content) {
      const before = conversation.state.external_events;
      const events = { ...(before !== null && typeof before === 'object' ? before : {}), [event.name]: payload };
      response = respond(content, { ...conversation.state, external_events: events }, conversation.language);
    }
    await this.execute(conversationId, { type: 'ReceiveExternalEvent', event, payload, response }, context);
    return true;
  }

  /** Records post-call analysis of an ended conversation; a second one records nothing (contract §24). */
  recordAnalysis(conversationId: string, analysis: ConversationAnalysedData, context: CommandContext) {
    return this.execute(conversationId, { type: 'RecordAnalysis', analysis }, context);
  }

  private async contentFor(request: StartRequest): Promise<ServedContent> {
    const environment = request.environment as Environment;
    const deploymentId =
      request.deploymentId ?? (await this.deployments.activeDeploymentId(request.agentId, environment));
    if (!deploymentId) throw new NoActiveDeploymentError(environment);
    return this.deployments.ofDeployment(request.agentId, deploymentId);
  }

  private answer(
    content: ServedContent,
    state: Readonly<Record<string, unknown>>,
    language: string,
    input: UserInput,
    onChunk?: OnChunk,
  ): Promise<TurnResult> {
    return this.runtime.respond(content, this.turnInput(state, language, input), onChunk);
  }

  private turnInput(state: Readonly<Record<string, unknown>>, language: string, input: UserInput): TurnInput {
    return {
      text: input.text,
      state,
      asrLangCode: input.asrLangCode ?? language,
      ttsLangCode: input.ttsLangCode ?? language,
      metadata: input.metadata ?? {},
      receivedAt: input.receivedAt ?? this.clock.nowIso(),
      newId: this.newId,
    };
  }

  private execute(conversationId: string, command: ConversationCommand, context: CommandContext) {
    return this.conversations.handle(conversationStream(conversationId), command, context);
  }
}
