import type { ServedContent } from '../../agents/deployment-content';
import type { TurnEffects } from '../conversation.decider';
import type { TurnData } from '../conversation.events';

export interface TurnInput {
  text: string;
  state: Readonly<Record<string, unknown>>;
  asrLangCode: string;
  ttsLangCode: string;
  metadata: Record<string, unknown>;
  /** ISO time the input was received, from the platform clock */
  receivedAt: string;
  newId: () => string;
}

/** Pieces of the answer as the model writes them (only a model answer streams). */
export type OnChunk = (text: string) => void;

export interface TurnResult {
  turn: Omit<TurnData, 'turnIndex'>;
  effects: TurnEffects;
  /** state after this turn's changes */
  state: Record<string, unknown>;
}

/**
 * What the engine asks of whatever answers a conversation's turns (the agent runtime,
 * src/runtime/agent-runtime.ts): declared here and answered there, since the runtime reads
 * conversations' events and the engine must not import it back. Bound by RuntimeModule, globally.
 */
export interface Answers {
  /** The answer as a stream of text pieces, and the turn. */
  stream(content: ServedContent, input: TurnInput): { chunks: AsyncIterable<string>; result: Promise<TurnResult> };
  /** The agent's greeting as a turn. */
  greet(content: ServedContent, input: Omit<TurnInput, 'text' | 'metadata'>): TurnResult;
  /** The answer to one input as a turn; `onChunk` hears a model's text as it is written. */
  respond(content: ServedContent, input: TurnInput, onChunk?: OnChunk): Promise<TurnResult>;
}

export const ANSWERS = Symbol('ANSWERS');
