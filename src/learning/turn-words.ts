import { Injectable } from '@nestjs/common';
import { DataAccessService } from '../accounts/data-access.service';
import { ERASED_TEXT } from '../conversations/conversation.events';
import { ReadableAtOnce } from '../conversations/readable-at-once';
import type { KeyRecord } from '../platform/auth/key-principal';
import { badRequest, DomainError, forbidden, notFound } from '../platform/errors/domain-error';
import { REDACTION_TOKENS } from '../privacy/redact-kinds';
import { ReadModels } from '../read-models/read-models.service';
import { conversationsRepository, type ConversationsRepository } from '../../projections/conversations/queries';

const TOKENS = Object.values(REDACTION_TOKENS);

/**
 * What the user said in one turn of a conversation, read server-side for the learning loop, with
 * the Conversations API's rules (contract §4, §8, §24): the key must read transcripts of the
 * project, the conversation must be the agent's, and the words must be the user's own as
 * recorded, never the `[erased]` or `[EMAIL]` that stands in for them.
 */
@Injectable()
export class TurnWords {
  private readonly conversations: ConversationsRepository;

  constructor(
    private readonly dataAccess: DataAccessService,
    private readonly readable: ReadableAtOnce,
    readModels: ReadModels,
  ) {
    this.conversations = conversationsRepository(readModels);
  }

  async read(agentId: string, conversationId: string, turnIndex: number, key: KeyRecord): Promise<string> {
    if (!key.permissions.includes('conversations'))
      throw forbidden(
        "reading a turn's words needs the conversations permission (or send the words as `query`)",
        'PERMISSION_DENIED',
      );
    if (!(await this.dataAccess.config(agentId)).showTranscripts)
      throw forbidden(
        "this project's data access hides transcripts, so a turn's words cannot be read (PUT .../data-access show_transcripts)",
        'TRANSCRIPTS_HIDDEN',
      );
    // a conversation id just handed out is readable at once (contract §2)
    await this.readable.conversation(conversationId);
    if (!(await this.conversations.one(agentId, conversationId)))
      throw notFound('CONVERSATION_NOT_FOUND', 'conversation not found');
    const turn = (await this.conversations.turns(conversationId, false)).find((t) => t.turnIndex === turnIndex);
    if (!turn) throw notFound('TURN_NOT_FOUND', `the conversation has no turn ${turnIndex}`);
    if (turn.userInput.trim() === '' || turn.isSilence || turn.dtmf !== undefined)
      throw badRequest(
        'NOT_A_USER_TURN',
        `turn ${turnIndex} holds no words of the user (${kindOf(turn)}); name a turn where the user spoke or typed`,
      );
    if (turn.userInput === ERASED_TEXT)
      throw new DomainError(
        'TURN_ERASED',
        "this conversation's personal data was erased: the turn's words are gone and cannot become an example query",
        422,
      );
    const token = TOKENS.find((t) => turn.userInput.includes(t));
    if (token)
      throw new DomainError(
        'TURN_REDACTED',
        `the turn's words were recorded redacted (${token} stands for personal data); write the example query yourself as \`query\``,
        422,
      );
    return turn.userInput.trim();
  }
}

function kindOf(turn: { turnIndex: number; isSilence: boolean; dtmf?: string }): string {
  if (turn.dtmf !== undefined) return 'keypad digits';
  if (turn.isSilence) return 'a silence';
  return turn.turnIndex === 0 ? "the agent's greeting" : "an agent's turn";
}
