import type { Awaitable } from '../awaitable';

/** Which account an agent belongs to; null when there is no such agent (or it was deleted). */
export interface AgentDirectory {
  /** At once when remembered or read from SQLite; a promise when the read model is in PostgreSQL. */
  accountOf(agentId: string): Awaitable<string | null>;
}

export const AGENT_DIRECTORY = Symbol('AgentDirectory');
