import { Injectable } from '@nestjs/common';
import { notFound } from '../platform/errors/domain-error';
import { ReadModels } from '../read-models/read-models.service';
import { agentsQueries, type AgentsQueries } from '../../projections/agents/queries';
import { AgentCommands } from './agent-commands';
import { branchDraft } from './agent.decider';
import type { ServedContent } from './served-content';

/** The environment draft chat's conversations carry (contract §26): listed only with `client_env=draft`. */
export const DRAFT_ENVIRONMENT = 'draft';

const DRAFT_PREFIX = 'draft:';

/** What a draft conversation records as its deployment: the branch it talks to, read again at every turn. */
export const draftDeploymentId = (branchId: string) => `${DRAFT_PREFIX}${branchId}`;

/** The branch a draft conversation's deployment id names, or null for a real deployment. */
export const draftBranchOf = (deploymentId: string): string | null =>
  deploymentId.startsWith(DRAFT_PREFIX) ? deploymentId.slice(DRAFT_PREFIX.length) : null;

/**
 * A branch's current content as a conversation is served it (contract §26, draft chat): read from
 * the agent's stream at every turn, so an edit on the branch is what the next turn answers with.
 * The served object is kept per branch content version, so a turn on an unchanged branch hands the
 * runtime the same content (and its topic index, cached by that version, is not built again).
 */
@Injectable()
export class DraftContent {
  private readonly served = new Map<string, ServedContent>();
  private readonly queries: AgentsQueries;

  constructor(
    private readonly agents: AgentCommands,
    readModels: ReadModels,
  ) {
    this.queries = agentsQueries(readModels);
  }

  /** Refuses an unknown or deleted branch (404 BRANCH_NOT_FOUND) and a merged one (409 BRANCH_MERGED). */
  async ofBranch(agentId: string, branchId: string): Promise<ServedContent> {
    const state = await this.agents.current(agentId);
    if (!state.exists || state.deleted) throw notFound('AGENT_NOT_FOUND', 'agent not found');
    const draft = branchDraft(state, branchId);
    const agent = await this.queries.agent(agentId);
    if (!agent || agent.deletedAt) throw notFound('AGENT_NOT_FOUND', 'agent not found');
    const key = `${agentId}/${branchId}`;
    const cached = this.served.get(key);
    if (
      cached?.draft?.version === draft.version &&
      cached.greeting === agent.greeting &&
      cached.languageCode === agent.languageCode
    )
      return cached;
    const { content } = draft;
    const served: ServedContent = {
      agentId,
      accountId: state.accountId,
      deploymentId: draftDeploymentId(branchId),
      // a merge deploys to sandbox first: a draft takes the settings a sandbox deployment would
      environment: 'sandbox',
      version: draft.baseSequence,
      greeting: agent.greeting,
      languageCode: agent.languageCode,
      behavior: content.behavior,
      topics: [...content.topics.values()],
      tools: [...(content.tools?.values() ?? [])],
      settings: content.settings,
      draft: { branchId, version: draft.version },
    };
    this.served.delete(key);
    if (this.served.size >= 500) this.served.delete(this.served.keys().next().value!);
    this.served.set(key, served);
    return served;
  }
}
