import { Inject, Injectable } from '@nestjs/common';
import {
  ConversationEndedError,
  ConversationIdleError,
  ConversationNotFoundError,
} from '../conversations/conversation-errors';
import {
  ConversationEngine,
  type OpenConversation,
  type TurnOutcome,
} from '../conversations/engine/conversation-engine';
import type { CommandContext } from '../commands/command-context';
import { CONFIG, type Config } from '../platform/config/config';
import { DomainError } from '../platform/errors/domain-error';
import { IdGenerator } from '../platform/ids/ids';
import type { CloseChatDto, CreateChatDto, RespondChatDto } from './chat-api.dto';
import { CHAT_ID_PREFIX, chatAnswer } from './chat-answer';

/**
 * Chat API (contract §16): server-to-server text chat with the deployment active in an
 * environment. The engine checks and runs each request; this says its refusals in §16's words.
 */
@Injectable()
export class ChatApiService {
  constructor(
    private readonly engine: ConversationEngine,
    @Inject(CONFIG) private readonly config: Config,
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
    const answered = await this.engine.turn({ conversationId, input: { text: dto.message } }, context);
    return chatAnswer(conversationId, answered.turn.agentResponse, answered.state, handoffOf(answered));
  }

  respond(agentId: string, dto: RespondChatDto, context: CommandContext) {
    return inChatWords(async () => {
      const request = this.open(agentId, dto.conversation_id);
      const answered = await this.engine.turn({ ...request, input: { text: dto.message ?? '' } }, context);
      return chatAnswer(dto.conversation_id, answered.turn.agentResponse, answered.state, handoffOf(answered));
    });
  }

  close(agentId: string, dto: CloseChatDto, context: CommandContext) {
    return inChatWords(async () => {
      await this.engine.close(this.open(agentId, dto.conversation_id), context);
      return { success: true };
    });
  }

  /**
   * This project's open chat: another project's conversation is not found, not forbidden (its
   * existence is not ours to tell). One idle past CHAT_IDLE_S is ended by the engine if its timer
   * has not fired yet, so the answer never depends on when the timer runs.
   */
  private open(agentId: string, conversationId: string): OpenConversation {
    if (!conversationId.startsWith(CHAT_ID_PREFIX)) throw new ConversationNotFoundError();
    return { conversationId, agentId, idleS: this.config.chatIdleS };
  }
}

/** §16 names an unknown conversation CONVERSATION_NOT_FOUND, and an idle one ended. */
async function inChatWords<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof ConversationNotFoundError)
      throw new DomainError('CONVERSATION_NOT_FOUND', 'conversation not found', 404);
    if (error instanceof ConversationIdleError) throw new ConversationEndedError();
    throw error;
  }
}

function handoffOf(outcome: TurnOutcome) {
  const handoff = outcome.kind === 'answered' ? outcome.effects.handoff : null;
  if (!handoff) return undefined;
  return {
    destination: handoff.destination,
    reason: handoff.reason,
    ...(handoff.sharedId ? { shared_id: handoff.sharedId } : {}),
  };
}
