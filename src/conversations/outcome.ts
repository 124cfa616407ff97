import type { EndReason, TurnData } from './conversation.events';

/** How a conversation went, as analytics (contract §23) and post-call analysis (§24) both name it. */
export type Outcome = 'contained' | 'handoff' | 'abandoned' | 'not_connected';
export const OUTCOMES: readonly Outcome[] = ['contained', 'handoff', 'abandoned', 'not_connected'];

/**
 * A turn the user took part in: they typed, spoke or keyed something. The greeting, an SMS idle
 * warning and a reprompt after silence are the agent's alone.
 */
export function isUserTurn(turn: Pick<TurnData, 'userInput' | 'isSilence' | 'dtmf'>): boolean {
  return !turn.isSilence && (turn.userInput.trim() !== '' || Boolean(turn.dtmf));
}

/**
 * One outcome for every ended conversation, first rule that holds: a call nobody answered is
 * `not_connected`; one handed to a person is `handoff`; one where the user got at least one answer
 * is `contained`; else the user left before the agent's first answer, `abandoned`.
 */
export function outcomeOf(ended: { reason: EndReason; handedOff: boolean; userTurns: number }): Outcome {
  if (ended.reason === 'not_connected') return 'not_connected';
  if (ended.handedOff || ended.reason === 'handoff') return 'handoff';
  return ended.userTurns > 0 ? 'contained' : 'abandoned';
}
