import { DomainError } from '../platform/errors/domain-error';

/*
 * Why a conversation cannot take a turn, as types a channel tells apart with `instanceof`. Each
 * carries debug chat's code and status (contract §7); a channel whose interface names the case
 * otherwise (the Chat API's CONVERSATION_NOT_FOUND, web chat's system messages) translates it.
 */

/** No such conversation, or another agent's (its existence is not the caller's to learn). */
export class ConversationNotFoundError extends DomainError {
  constructor() {
    super('CONVERSATIONS_NOT_FOUND', 'conversation not found', 404);
  }
}

/** The conversation has ended: a new one must be started. */
export class ConversationEndedError extends DomainError {
  constructor() {
    super('CHAT_CONVERSATION_ENDED', 'this conversation has ended; start a new one', 410);
  }
}

/** The conversation was idle past the channel's limit: the engine ended it ('timeout') before refusing the turn. */
export class ConversationIdleError extends DomainError {
  constructor(readonly idleS: number) {
    super('CHAT_TIMEOUT', `the chat session was idle for more than ${idleS} s; start a new one`, 400);
  }
}

/** The conversation runs in another environment than the one the client says it talks to. */
export class ConversationEnvironmentError extends DomainError {
  constructor(
    readonly environment: string,
    readonly asked: string,
  ) {
    super('CLIENT_ENV_MISMATCH', `this conversation runs in ${environment}, not ${asked}`, 400);
  }
}
