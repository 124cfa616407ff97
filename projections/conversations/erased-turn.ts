import { ERASED_TEXT } from '../../src/conversations/conversation.events';

type Json = Record<string, unknown>;

const erasedText = (value: unknown) => (typeof value === 'string' && value !== '' ? ERASED_TEXT : value);

/**
 * A stored turn's columns once its conversation was erased (contract §24): what a rebuild makes
 * of the turn's event read with its key destroyed (src/erasure/personal-fields.ts), so scrubbing
 * in place and rebuilding give the same rows. Empty texts stay empty: they were never sealed.
 */
export function erasedTurn(row: { userInput: string; agentResponse: string; turn: string; metadata: string }) {
  const turn = JSON.parse(row.turn) as Json;
  turn.userInput = erasedText(turn.userInput);
  turn.agentResponse = erasedText(turn.agentResponse);
  turn.entities = {};
  if (turn.dtmf !== undefined) turn.dtmf = erasedText(turn.dtmf);
  const metadata = JSON.parse(row.metadata) as Json;
  metadata.functionEvents = [];
  return {
    userInput: erasedText(row.userInput) as string,
    agentResponse: erasedText(row.agentResponse) as string,
    turn: JSON.stringify(turn),
    metadata: JSON.stringify(metadata),
  };
}
