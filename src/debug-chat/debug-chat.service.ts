import { Inject, Injectable } from '@nestjs/common';
import { DeploymentContent } from '../agents/deployment-content';
import type { Environment } from '../agents/agent.events';
import { conversationDecider, type ConversationState } from '../conversations/conversation.decider';
import { conversationStream, type TurnData } from '../conversations/conversation.events';
import { EVENT_STORE, type EventStore } from '../event-store/event-store.port';
import { Clock } from '../platform/clock/clock';
import { ConversationCache } from '../conversations/conversation-cache';
import type { CommandContext } from '../platform/commands/command-context';
import { handleCommand, peek } from '../platform/commands/command-handler';
import { KeyedQueue } from '../platform/commands/keyed-queue';
import { CONFIG, type Config } from '../platform/config/config';
import { DomainError } from '../platform/errors/domain-error';
import { IdGenerator } from '../platform/ids/ids';
import { AgentRuntime } from '../runtime/agent-runtime';
import type { DebugChatTurnDto } from './debug-chat.dto';
import { debugChatTurn } from './debug-chat.view';

const notFound = () => new DomainError('CONVERSATIONS_NOT_FOUND', 'conversation not found', 404);

/** Debug chat (contract §7): test conversations with the deployment active in an environment. */
@Injectable()
export class DebugChatService {
  /** One turn at a time per conversation: read state, run the agent, append, in arrival order. */
  private readonly turns = new KeyedQueue();

  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    private readonly cache: ConversationCache,
    @Inject(CONFIG) private readonly config: Config,
    private readonly clock: Clock,
    private readonly ids: IdGenerator,
    private readonly deployments: DeploymentContent,
    private readonly runtime: AgentRuntime,
  ) {}

  async start(agentId: string, environment: Environment, context: CommandContext) {
    const deploymentId = await this.deployments.activeDeploymentId(agentId, environment);
    if (!deploymentId) throw new DomainError('CHAT_DRAFT_NOT_EXIST', `no deployment is active in ${environment}; merge or promote one first`, 400);
    const content = await this.deployments.ofDeployment(agentId, deploymentId);
    const conversationId = `AS_CHAT_${this.ids.uuid()}`;
    const now = this.clock.nowIso();
    const initialState = { conversation_id: conversationId, channel: 'CHAT', environment, caller_number: '', agent_number: '', language: content.languageCode };
    const greeting = this.runtime.greet(content, { state: initialState, asrLangCode: content.languageCode, ttsLangCode: content.languageCode, receivedAt: now, newId: () => this.ids.uuid() });
    await handleCommand(
      this.store,
      this.clock,
      conversationStream(conversationId),
      conversationDecider,
      {
        type: 'StartConversation',
        started: {
          conversationId,
          accountId: content.accountId,
          agentId,
          deploymentId,
          version: content.version,
          environment,
          channel: 'CHAT',
          fromNumber: '',
          toNumber: '',
          variantId: '',
          variantName: '',
          language: content.languageCode,
          startedAt: now,
        },
        initialState,
        greeting: greeting.turn,
      },
      context,
      this.cache,
    );
    return debugChatTurn(conversationId, greeting.turn, initialState, [], '', false);
  }

  turn(agentId: string, conversationId: string, dto: DebugChatTurnDto, context: CommandContext) {
    return this.turns.run(conversationId, () => this.runTurn(agentId, conversationId, dto, context));
  }

  private async runTurn(agentId: string, conversationId: string, dto: DebugChatTurnDto, context: CommandContext) {
    if (!conversationId.startsWith('AS_CHAT_')) throw notFound();
    const stream = conversationStream(conversationId);
    // The shared cache holds what the external-events binding appended here too (delayed responses).
    const state = await peek<ConversationState, never>(this.store, stream, conversationDecider as never, this.cache);
    if (!state.exists || state.agentId !== agentId) throw notFound();
    // An external event's answer that arrived meanwhile is this request's response (contract §7).
    if (state.pendingDelayed.length > 0 && dto.clientEnv === state.environment) return this.deliverDelayed(conversationId, state.pendingDelayed[0], context);
    if (state.ended) throw new DomainError('CHAT_CONVERSATION_ENDED', 'this conversation has ended; start a new one', 410);
    if (dto.clientEnv !== state.environment) {
      throw new DomainError('CLIENT_ENV_MISMATCH', `this conversation runs in ${state.environment}, not ${dto.clientEnv}`, 400);
    }
    const now = this.clock.now();
    if (now.getTime() - Date.parse(state.lastActivityAt) > this.config.debugChatTimeoutS * 1000) {
      await handleCommand(this.store, this.clock, stream, conversationDecider, { type: 'EndConversation', reason: 'timeout', now: now.toISOString() }, context, this.cache);
      throw new DomainError('CHAT_TIMEOUT', `the chat session was idle for more than ${this.config.debugChatTimeoutS} s; start a new one`, 400);
    }
    const content = await this.deployments.ofDeployment(agentId, state.deploymentId);
    const result = await this.runtime.respond(content, {
      text: dto.message ?? '',
      state: state.state,
      asrLangCode: dto.asrLangCode ?? state.language,
      ttsLangCode: dto.ttsLangCode ?? state.language,
      metadata: dto.metadata ?? {},
      receivedAt: now.toISOString(),
      newId: () => this.ids.uuid(),
    });
    const after = await handleCommand(this.store, this.clock, stream, conversationDecider, { type: 'RecordTurn', turn: result.turn, effects: result.effects }, context, this.cache);
    return debugChatTurn(conversationId, result.turn, after.state.state, after.state.metrics, after.state.handoff?.destination ?? '', after.state.ended !== null);
  }

  /** Hands out the oldest undelivered delayed response; the request's own message is not taken (send it again). */
  private async deliverDelayed(conversationId: string, turn: TurnData, context: CommandContext) {
    const stream = conversationStream(conversationId);
    const after = await handleCommand(this.store, this.clock, stream, conversationDecider, { type: 'AcknowledgeDelayedResponse', turnIndex: turn.turnIndex, now: this.clock.nowIso() }, context, this.cache);
    return debugChatTurn(conversationId, turn, after.state.state, after.state.metrics, after.state.handoff?.destination ?? '', after.state.ended !== null);
  }
}
