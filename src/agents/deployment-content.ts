import { Inject, Injectable } from '@nestjs/common';
import { AGENT_DIRECTORY, type AgentDirectory } from '../platform/auth/agent-directory';
import { notFound } from '../platform/errors/domain-error';
import { ReadModels } from '../read-models/read-models.service';
import { agentsQueries, type AgentsQueries } from '../../projections/agents/queries';
import { agentSettingsQueries, type AgentSettingsQueries } from '../../projections/agent-settings/queries';
import type { Environment, Topic } from './agent.events';
import { agentToolsQueries, type AgentToolsQueries } from '../../projections/agent-tools/queries';
import type { RuntimeSettings } from './runtime-settings';
import type { ServedContent } from './served-content';
import { DraftContent, draftBranchOf } from './draft-content';

export type { ServedContent } from './served-content';

/**
 * What a deployment serves: main as it was at the deployment's sequence. Immutable: later merges
 * add new versions and never touch this one, so it is cached by deployment (every turn of every
 * conversation asks for it).
 */
@Injectable()
export class DeploymentContent {
  private readonly cache = new Map<string, { behavior: string; topics: Topic[]; settings: RuntimeSettings }>();
  private readonly served = new Map<string, ServedContent>();
  private readonly queries: AgentsQueries;
  private readonly toolQueries: AgentToolsQueries;
  private readonly settings: AgentSettingsQueries;

  constructor(
    readModels: ReadModels,
    @Inject(AGENT_DIRECTORY) private readonly agents: AgentDirectory,
    private readonly drafts: DraftContent,
  ) {
    this.queries = agentsQueries(readModels);
    this.toolQueries = agentToolsQueries(readModels);
    this.settings = agentSettingsQueries(readModels);
  }

  /** A draft conversation's "deployment" is its branch as it is now (draft-content.ts): read at every turn. */
  async ofDeployment(agentId: string, deploymentId: string): Promise<ServedContent> {
    const branchId = draftBranchOf(deploymentId);
    if (branchId !== null) return this.drafts.ofBranch(agentId, branchId);
    const key = `${agentId}/${deploymentId}`;
    const cached = this.served.get(key);
    // a deleted agent serves nothing, even from the cache
    if (cached && (await this.agents.accountOf(agentId)) !== null) return cached;
    const content = await this.load(agentId, deploymentId);
    if (this.served.size >= 1000) this.served.delete(this.served.keys().next().value!);
    this.served.set(key, content);
    return content;
  }

  private async load(agentId: string, deploymentId: string): Promise<ServedContent> {
    const deployment = await this.queries.deploymentOf(agentId, deploymentId);
    if (!deployment) throw notFound('DEPLOYMENT_NOT_FOUND', 'deployment not found');
    const agent = await this.queries.agent(agentId);
    if (!agent || agent.deletedAt) throw notFound('AGENT_NOT_FOUND', 'agent not found');
    const content = await this.version(agentId, deployment.version);
    return {
      agentId,
      accountId: agent.accountId,
      deploymentId,
      environment: deployment.environment as Environment,
      version: deployment.version,
      greeting: agent.greeting,
      languageCode: agent.languageCode,
      ...content,
      tools: await this.toolQueries.toolsAt(agentId, deployment.version),
    };
  }

  /** The deployment active in `environment` now, or null when there is none (every conversation's start asks: a prepared lookup). */
  async activeDeploymentId(agentId: string, environment: Environment): Promise<string | null> {
    const { row } = await this.queries.activeDeploymentId(agentId, environment);
    return row?.deployment_id ?? null;
  }

  private async version(agentId: string, sequence: number) {
    const key = `${agentId}@${sequence}`;
    const cached = this.cache.get(key);
    if (cached) return cached;
    const row = await this.queries.mainVersionOrFail(agentId, sequence);
    const settings = await this.settings.ofMainVersion(agentId, sequence);
    const content = { behavior: row.behavior, topics: JSON.parse(row.topics) as Topic[], settings };
    if (this.cache.size > 500) this.cache.delete(this.cache.keys().next().value!);
    this.cache.set(key, content);
    return content;
  }
}
