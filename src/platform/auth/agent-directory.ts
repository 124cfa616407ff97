/** Which account an agent belongs to; null when there is no such agent (or it was deleted). */
export interface AgentDirectory {
  accountOf(agentId: string): string | null;
}

export const AGENT_DIRECTORY = Symbol('AgentDirectory');
