import { forbidden } from '../platform/errors/domain-error';

/** The agents a key reaches (contract §4): every agent of its account, or these ids. */
export type AgentScope = 'all' | readonly string[];

/**
 * Contract §12: a rule on an agent outside the key's scope is neither listed nor writable (403).
 * An account-wide rule (no project) watches every agent: only a key scoped to all agents reaches it.
 */
export function reachesRule(scope: AgentScope, projectId: string | null): boolean {
  if (scope === 'all') return true;
  return projectId !== null && scope.includes(projectId);
}

export function assertReachesRule(scope: AgentScope, projectId: string | null): void {
  if (reachesRule(scope, projectId)) return;
  throw projectId === null
    ? forbidden('account-wide alert rules need a key scoped to all agents ("agents": "all")', 'AGENT_FORBIDDEN')
    : forbidden('this key is not scoped to this agent', 'AGENT_FORBIDDEN');
}
