import { Inject, Injectable } from '@nestjs/common';
import type { Environment } from '../agents/agent.events';
import { MAIN } from '../agents/agent.decider';
import { DRAFT_ENVIRONMENT, DraftContent, draftBranchOf, draftDeploymentId } from '../agents/draft-content';
import { ConversationEnvironmentError, ConversationNotFoundError } from '../conversations/conversation-errors';
import { ConversationEngine, NoActiveDeploymentError } from '../conversations/engine/conversation-engine';
import type { CommandContext } from '../commands/command-context';
import { CONFIG, type Config } from '../platform/config/config';
import { DomainError } from '../platform/errors/domain-error';
import { branchRef, parseBranchId } from '../platform/ids/prefixed-ids';
import { IdGenerator } from '../platform/ids/ids';
import { invalidField } from '../platform/validation/field-checks';
import type { DebugChatTurnDto, StartDebugChatDto } from './debug-chat.dto';
import { debugChatTurn } from './debug-chat.view';

const DEBUG_CHAT_PREFIX = 'AS_CHAT_';

/** What a debug chat talks to: an environment's active deployment, or a branch's draft (contract §26). */
type Target = { environment: Environment } | { branchId: string };

/** The request's target: `clientEnv` or `branchId`, never both (the DTO already requires one). */
function targetOf(dto: { clientEnv?: Environment; branchId?: string }): Target {
  if (dto.clientEnv !== undefined && dto.branchId !== undefined)
    throw invalidField('branchId', 'send clientEnv or branchId, not both');
  if (dto.branchId !== undefined) return { branchId: dto.branchId === MAIN ? MAIN : parseBranchId(dto.branchId) };
  return { environment: dto.clientEnv! };
}

/**
 * Debug chat (contract §7): test conversations with the deployment active in an environment, over
 * HTTP; or, with `branchId`, with a branch's content as it is now, before any merge (draft chat,
 * contract §26): the conversation runs in environment `draft` and each turn reads the branch again.
 * The engine checks and runs each turn; its refusals already carry this API's codes.
 */
@Injectable()
export class DebugChatService {
  constructor(
    private readonly engine: ConversationEngine,
    private readonly drafts: DraftContent,
    @Inject(CONFIG) private readonly config: Config,
    private readonly ids: IdGenerator,
  ) {}

  async start(agentId: string, dto: StartDebugChatDto, context: CommandContext) {
    const target = targetOf(dto);
    const conversationId = `${DEBUG_CHAT_PREFIX}${this.ids.uuid()}`;
    try {
      const opening =
        'branchId' in target
          ? {
              environment: DRAFT_ENVIRONMENT,
              // refuses an unknown (404) or merged (409) branch before anything is recorded
              deploymentId: (await this.drafts.ofBranch(agentId, target.branchId)).deploymentId,
            }
          : { environment: target.environment };
      const started = await this.engine.start({ conversationId, agentId, channel: 'CHAT', ...opening }, context);
      return debugChatTurn(conversationId, started.greeting, started.state.state, [], '', false);
    } catch (error) {
      if (error instanceof NoActiveDeploymentError) throw new DomainError('CHAT_DRAFT_NOT_EXIST', error.message, 400);
      throw error;
    }
  }

  async turn(agentId: string, conversationId: string, dto: DebugChatTurnDto, context: CommandContext) {
    const target = targetOf(dto);
    if (!conversationId.startsWith(DEBUG_CHAT_PREFIX)) throw new ConversationNotFoundError();
    if ('branchId' in target) await this.checkDraft(agentId, conversationId, target.branchId);
    const outcome = await this.engine.turn(
      {
        conversationId,
        agentId,
        environment: 'branchId' in target ? DRAFT_ENVIRONMENT : target.environment,
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

  /**
   * A draft turn names the branch it means: an unknown one is not found, a merged one refused (as
   * its content would be read), and one other than the conversation's is refused like another
   * environment (CLIENT_ENV_MISMATCH). A conversation on an environment is left to the engine's check.
   */
  private async checkDraft(agentId: string, conversationId: string, branchId: string): Promise<void> {
    const conversation = await this.engine.peek(conversationId);
    if (!conversation.exists || conversation.agentId !== agentId) throw new ConversationNotFoundError();
    await this.drafts.ofBranch(agentId, branchId);
    const talksTo = draftBranchOf(conversation.deploymentId);
    if (conversation.environment === DRAFT_ENVIRONMENT && conversation.deploymentId !== draftDeploymentId(branchId))
      throw new ConversationEnvironmentError(
        `${DRAFT_ENVIRONMENT} of branch ${branchRef(talksTo ?? '')}`,
        `${DRAFT_ENVIRONMENT} of branch ${branchRef(branchId)}`,
      );
  }
}
