import { Inject, Injectable } from '@nestjs/common';
import type { Environment } from '../agents/agent.events';
import { ConversationNotFoundError } from '../conversations/conversation-errors';
import { ConversationEngine, NoActiveDeploymentError } from '../conversations/engine/conversation-engine';
import type { CommandContext } from '../commands/command-context';
import { CONFIG, type Config } from '../platform/config/config';
import { DomainError } from '../platform/errors/domain-error';
import { IdGenerator } from '../platform/ids/ids';
import type { DebugChatTurnDto } from './debug-chat.dto';
import { debugChatTurn } from './debug-chat.view';

const DEBUG_CHAT_PREFIX = 'AS_CHAT_';

/**
 * Debug chat (contract §7): test conversations with the deployment active in an environment, over
 * HTTP. The engine checks and runs each turn; its refusals already carry this API's codes.
 */
@Injectable()
export class DebugChatService {
  constructor(
    private readonly engine: ConversationEngine,
    @Inject(CONFIG) private readonly config: Config,
    private readonly ids: IdGenerator,
  ) {}

  async start(agentId: string, environment: Environment, context: CommandContext) {
    const conversationId = `${DEBUG_CHAT_PREFIX}${this.ids.uuid()}`;
    try {
      const started = await this.engine.start({ conversationId, agentId, environment, channel: 'CHAT' }, context);
      return debugChatTurn(conversationId, started.greeting, started.state.state, [], '', false);
    } catch (error) {
      if (error instanceof NoActiveDeploymentError) throw new DomainError('CHAT_DRAFT_NOT_EXIST', error.message, 400);
      throw error;
    }
  }

  async turn(agentId: string, conversationId: string, dto: DebugChatTurnDto, context: CommandContext) {
    if (!conversationId.startsWith(DEBUG_CHAT_PREFIX)) throw new ConversationNotFoundError();
    const outcome = await this.engine.turn(
      {
        conversationId,
        agentId,
        environment: dto.clientEnv,
        idleS: this.config.debugChatTimeoutS,
        // an external event's answer that arrived meanwhile is this request's response (contract §7)
        takesDelayed: true,
        input: {
          text: dto.message ?? '',
          asrLangCode: dto.asrLangCode,
          ttsLangCode: dto.ttsLangCode,
          metadata: dto.metadata,
        },
      },
      context,
    );
    const { state } = outcome;
    return debugChatTurn(
      conversationId,
      outcome.turn,
      state.state,
      state.metrics,
      state.handoff?.destination ?? '',
      state.ended !== null,
    );
  }
}
