import { Injectable } from '@nestjs/common';
import { notFound } from '../platform/errors/domain-error';
import { ReadModels } from '../read-models/read-models.service';
import { ActiveDeploymentRow, AgentRow, DeploymentRow, MainVersionRow } from '../../projections/agents/agents.entities';
import type { Environment, Topic } from './agent.events';

/** Everything a conversation needs from the deployment it runs on. */
export interface ServedContent {
  agentId: string;
  accountId: string;
  deploymentId: string;
  environment: Environment;
  version: number;
  greeting: string;
  languageCode: string;
  behavior: string;
  topics: Topic[];
}

/**
 * What a deployment serves: main as it was at the deployment's sequence. Immutable: later merges
 * add new versions and never touch this one. Cached by (agent, sequence) for that reason.
 */
@Injectable()
export class DeploymentContent {
  private readonly cache = new Map<string, { behavior: string; topics: Topic[] }>();

  constructor(private readonly readModels: ReadModels) {}

  async ofDeployment(agentId: string, deploymentId: string): Promise<ServedContent> {
    const source = this.readModels.source('agents');
    const deployment = await source.getRepository(DeploymentRow).findOneBy({ id: deploymentId, agentId });
    if (!deployment) throw notFound('DEPLOYMENT_NOT_FOUND', 'deployment not found');
    const agent = await source.getRepository(AgentRow).findOneBy({ id: agentId });
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
    };
  }

  /** The deployment active in `environment` now, or null when there is none. */
  async activeDeploymentId(agentId: string, environment: Environment): Promise<string | null> {
    const row = await this.readModels.source('agents').getRepository(ActiveDeploymentRow).findOneBy({ agentId, environment });
    return row?.deploymentId ?? null;
  }

  private async version(agentId: string, sequence: number) {
    const key = `${agentId}@${sequence}`;
    const cached = this.cache.get(key);
    if (cached) return cached;
    const row = await this.readModels.source('agents').getRepository(MainVersionRow).findOneByOrFail({ agentId, sequence });
    const content = { behavior: row.behavior, topics: JSON.parse(row.topics) as Topic[] };
    if (this.cache.size > 500) this.cache.delete(this.cache.keys().next().value!);
    this.cache.set(key, content);
    return content;
  }
}
