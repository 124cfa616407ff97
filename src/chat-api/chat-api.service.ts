import { Inject, Injectable } from '@nestjs/common';
import type { ConversationState, TurnEffects } from '../conversations/conversation.decider';
import { ConversationEngine } from '../conversations/engine/conversation-engine';
import { Clock } from '../platform/clock/clock';
import type { CommandContext } from '../commands/command-context';
import { KeyedQueue } from '../commands/keyed-queue';
import { CONFIG, type Config } from '../platform/config/config';
import { DomainError } from '../platform/errors/domain-error';
import { IdGenerator } from '../platform/ids/ids';
import type { CloseChatDto, CreateChatDto, RespondChatDto } from './chat-api.dto';
import { CHAT_ID_PREFIX, chatAnswer } from './chat-answer';

const notFound = () => new DomainError('CONVERSATION_NOT_FOUND', 'conversation not found', 404);
const ended = () => new DomainError('CHAT_CONVERSATION_ENDED', 'this conversation has ended; start a new one', 410);

/** Chat API (contract §16): server-to-server text chat with the deployment active in an environment. */
@Injectable()
export class ChatApiService {
  /** One request at a time per conversation: read state, run the agent, append, in arrival order. */
  private readonly queue = new KeyedQueue();

  constructor(
    private readonly engine: ConversationEngine,
    @Inject(CONFIG) private readonly config: Config,
    private readonly clock: Clock,
    private readonly ids: IdGenerator,
  ) {}

  async create(agentId: string, dto: CreateChatDto, context: CommandContext) {
    const conversationId = `${CHAT_ID_PREFIX}${this.ids.uuid()}`;
    const attributes: Record<string, unknown> = {};
    if (dto.metadata !== undefined) attributes.metadata = dto.metadata;
    if (dto.user_id !== undefined) attributes.user_id = dto.user_id;
    // NoActiveDeploymentError is already 400 NO_ACTIVE_DEPLOYMENT, as §16 names it
    const started = await this.engine.start(
      { conversationId, agentId, environment: dto.client_env ?? 'live', channel: 'CHAT', attributes },
      context,
    );
    if (dto.message === undefined) return chatAnswer(conversationId, started.greeting.agentResponse, started.state);
    const result = await this.engine.think(started.state, { text: dto.message });
    const after = await this.engine.record(conversationId, result, context);
    return chatAnswer(conversationId, result.turn.agentResponse, after.state, handoffOf(result.effects));
  }

  respond(agentId: string, dto: RespondChatDto, context: CommandContext) {
    return this.queue.run(dto.conversation_id, async () => {
      const conversation = await this.open(agentId, dto.conversation_id, context);
      const result = await this.engine.think(conversation, { text: dto.message ?? '' });
      const after = await this.engine.record(dto.conversation_id, result, context);
      return chatAnswer(dto.conversation_id, result.turn.agentResponse, after.state, handoffOf(result.effects));
    });
  }

  close(agentId: string, dto: CloseChatDto, context: CommandContext) {
    return this.queue.run(dto.conversation_id, async () => {
      await this.open(agentId, dto.conversation_id, context);
      await this.engine.end(dto.conversation_id, 'user', context);
      return { success: true };
    });
  }

  /**
   * The conversation when it is this project's open chat. One idle past CHAT_IDLE_S is ended here
   * if its timer has not fired yet, so the answer never depends on when the timer runs.
   */
  private async open(agentId: string, conversationId: string, context: CommandContext): Promise<ConversationState> {
    if (!conversationId.startsWith(CHAT_ID_PREFIX)) throw notFound();
    const state = await this.engine.peek(conversationId);
    // another project's conversation is not found, not forbidden: its existence is not ours to tell
    if (!state.exists || state.agentId !== agentId) throw notFound();
    if (state.ended) throw ended();
    const now = this.clock.now();
    if (now.getTime() - Date.parse(state.lastActivityAt) > this.config.chatIdleS * 1000) {
      await this.engine.end(conversationId, 'timeout', context, now.toISOString());
      throw ended();
    }
    return state;
  }
}

function handoffOf(effects: TurnEffects) {
  const handoff = effects.handoff;
  if (!handoff) return undefined;
  return {
    destination: handoff.destination,
    reason: handoff.reason,
    ...(handoff.sharedId ? { shared_id: handoff.sharedId } : {}),
  };
}
