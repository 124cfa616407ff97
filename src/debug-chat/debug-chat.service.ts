import { Inject, Injectable } from '@nestjs/common';
import type { Environment } from '../agents/agent.events';
import type { TurnData } from '../conversations/conversation.events';
import { ConversationEngine, NoActiveDeploymentError } from '../conversations/engine/conversation-engine';
import { Clock } from '../platform/clock/clock';
import type { CommandContext } from '../commands/command-context';
import { KeyedQueue } from '../commands/keyed-queue';
import { CONFIG, type Config } from '../platform/config/config';
import { DomainError } from '../platform/errors/domain-error';
import { IdGenerator } from '../platform/ids/ids';
import type { DebugChatTurnDto } from './debug-chat.dto';
import { debugChatTurn } from './debug-chat.view';

const notFound = () => new DomainError('CONVERSATIONS_NOT_FOUND', 'conversation not found', 404);

/** Debug chat (contract §7): test conversations with the deployment active in an environment, over HTTP. */
@Injectable()
export class DebugChatService {
  /** One turn at a time per conversation: read state, run the agent, append, in arrival order. */
  private readonly turns = new KeyedQueue();

  constructor(
    private readonly engine: ConversationEngine,
    @Inject(CONFIG) private readonly config: Config,
    private readonly clock: Clock,
    private readonly ids: IdGenerator,
  ) {}

  async start(agentId: string, environment: Environment, context: CommandContext) {
    const conversationId = `AS_CHAT_${this.ids.uuid()}`;
    try {
      const started = await this.engine.start({ conversationId, agentId, environment, channel: 'CHAT' }, context);
      return debugChatTurn(conversationId, started.greeting, started.state.state, [], '', false);
    } catch (error) {
      if (error instanceof NoActiveDeploymentError) throw new DomainError('CHAT_DRAFT_NOT_EXIST', error.message, 400);
      throw error;
    }
  }

  turn(agentId: string, conversationId: string, dto: DebugChatTurnDto, context: CommandContext) {
    return this.turns.run(conversationId, () => this.runTurn(agentId, conversationId, dto, context));
  }

  private async runTurn(agentId: string, conversationId: string, dto: DebugChatTurnDto, context: CommandContext) {
    if (!conversationId.startsWith('AS_CHAT_')) throw notFound();
    // The engine's cache holds what the external-events binding appended here too (delayed responses).
    const state = await this.engine.peek(conversationId);
    if (!state.exists || state.agentId !== agentId) throw notFound();
    // An external event's answer that arrived meanwhile is this request's response (contract §7).
    if (state.pendingDelayed.length > 0 && dto.clientEnv === state.environment)
      return this.deliverDelayed(conversationId, state.pendingDelayed[0], context);
    if (state.ended)
      throw new DomainError('CHAT_CONVERSATION_ENDED', 'this conversation has ended; start a new one', 410);
    if (dto.clientEnv !== state.environment) {
      throw new DomainError(
        'CLIENT_ENV_MISMATCH',
        `this conversation runs in ${state.environment}, not ${dto.clientEnv}`,
        400,
      );
    }
    const now = this.clock.now();
    if (now.getTime() - Date.parse(state.lastActivityAt) > this.config.debugChatTimeoutS * 1000) {
      await this.engine.end(conversationId, 'timeout', context, now.toISOString());
      throw new DomainError(
        'CHAT_TIMEOUT',
        `the chat session was idle for more than ${this.config.debugChatTimeoutS} s; start a new one`,
        400,
      );
    }
    const input = {
      text: dto.message ?? '',
      asrLangCode: dto.asrLangCode,
      ttsLangCode: dto.ttsLangCode,
      metadata: dto.metadata,
      receivedAt: now.toISOString(),
    };
    const result = await this.engine.think(state, input);
    const after = await this.engine.record(conversationId, result, context);
    return debugChatTurn(
      conversationId,
      result.turn,
      after.state.state,
      after.state.metrics,
      after.state.handoff?.destination ?? '',
      after.state.ended !== null,
    );
  }

  /** Hands out the oldest undelivered delayed response; the request's own message is not taken (send it again). */
  private async deliverDelayed(conversationId: string, turn: TurnData, context: CommandContext) {
    const after = await this.engine.acknowledgeDelayed(conversationId, turn.turnIndex, context);
    return debugChatTurn(
      conversationId,
      turn,
      after.state.state,
      after.state.metrics,
      after.state.handoff?.destination ?? '',
      after.state.ended !== null,
    );
  }
}
