import type { TurnView } from './conversation-view';

export interface TurnRow {
  turn: string;
  metadata?: string;
}

/** A stored turn as the API reads it: the metadata is `{}` when it was not read. */
export function toTurn(row: TurnRow): TurnView {
  const turn = JSON.parse(row.turn) as TurnView;
  turn.metadata = row.metadata === undefined ? {} : (JSON.parse(row.metadata) as Record<string, unknown>);
  return turn;
}
