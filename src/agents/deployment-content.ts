import { Inject, Injectable } from '@nestjs/common';
import { AGENT_DIRECTORY, type AgentDirectory } from '../platform/auth/agent-directory';
import { notFound } from '../platform/errors/domain-error';
import { ReadModels } from '../read-models/read-models.service';
import { ReadQuery } from '../read-models/read-query';
import { AgentRow, DeploymentRow, MainVersionRow } from '../../projections/agents/agents.entities';
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
 * add new versions and never touch this one, so it is cached by deployment (every turn of every
 * conversation asks for it).
 */
@Injectable()
export class DeploymentContent {
  private readonly cache = new Map<string, { behavior: string; topics: Topic[] }>();
  private readonly served = new Map<string, ServedContent>();

  constructor(
    private readonly readModels: ReadModels,
    @Inject(AGENT_DIRECTORY) private readonly agents: AgentDirectory,
  ) {}

  async ofDeployment(agentId: string, deploymentId: string): Promise<ServedContent> {
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

  /** Every conversation's start asks: a prepared lookup (TypeORM's findOneBy costs ten times as much). */
  private readonly active = new ReadQuery<{ deployment_id: string }>(
    () => this.readModels.source('agents'),
    'SELECT deployment_id FROM active_deployment WHERE agent_id = ? AND environment = ?',
  );

  /** The deployment active in `environment` now, or null when there is none. */
  async activeDeploymentId(agentId: string, environment: Environment): Promise<string | null> {
    const { row } = await this.active.get(agentId, environment);
    return row?.deployment_id ?? null;
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
