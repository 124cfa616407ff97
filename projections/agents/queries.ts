import type { DataSource } from 'typeorm';
import { ReadQuery } from '../../src/read-models/read-query';
import type { Lookup, Plain, ReadModelSources } from '../query-kit';
import {
  ActiveDeploymentRow,
  AgentRow,
  BranchRow,
  BranchTopicRow,
  DeploymentRow,
  MainVersionRow,
} from './agents.entities';
import { AGENTS_READ_MODEL } from './name';

export { AGENTS_READ_MODEL } from './name';

export type Agent = Plain<AgentRow>;
export type Branch = Plain<BranchRow>;
export type BranchTopic = Plain<BranchTopicRow>;
export type Deployment = Plain<DeploymentRow>;
type ActiveDeployment = Plain<ActiveDeploymentRow>;
type MainVersion = Plain<MainVersionRow>;

/** The agents read model's queries: agents, branches, topics, main's versions and deployments. */
export interface AgentsQueries {
  agentsOf(accountId: string): Promise<Agent[]>;
  agent(agentId: string): Promise<Agent | null>;
  branchesOf(agentId: string): Promise<Branch[]>;
  branch(agentId: string, branchId: string): Promise<Branch | null>;
  /** A branch's topics by name. */
  topicsOf(agentId: string, branchId: string): Promise<BranchTopic[]>;
  /** A topic that must exist (just written): throws otherwise. */
  topicOrFail(agentId: string, branchId: string, topicId: string): Promise<BranchTopic>;
  activeDeploymentsOf(agentId: string): Promise<ActiveDeployment[]>;
  deploymentsByIds(ids: string[]): Promise<Deployment[]>;
  /** An agent's deployments, newest artifact first. */
  deploymentsOf(agentId: string, environment?: string): Promise<Deployment[]>;
  deploymentOf(agentId: string, deploymentId: string): Promise<Deployment | null>;
  /** A deployment that must exist (just written): throws otherwise. */
  deploymentOrFail(deploymentId: string): Promise<Deployment>;
  /** main at a sequence, which every deployment of that sequence serves. */
  mainVersionOrFail(agentId: string, sequence: number): Promise<MainVersion>;
  /** Prepared (every guarded request): the agent's owner and whether it is deleted. */
  ownerOf(agentId: string): Lookup<{ account_id: string; deleted_at: string | null }>;
  /** Prepared (every conversation start): the deployment active in an environment. */
  activeDeploymentId(agentId: string, environment: string): Lookup<{ deployment_id: string }>;
  /** Prepared: the agent's name. */
  nameOf(agentId: string): Lookup<{ name: string }>;
}

class AgentsReadModel implements AgentsQueries {
  private readonly owner: ReadQuery<{ account_id: string; deleted_at: string | null }>;
  private readonly active: ReadQuery<{ deployment_id: string }>;
  private readonly name: ReadQuery<{ name: string }>;

  constructor(private readonly source: () => DataSource) {
    this.owner = new ReadQuery(source, 'SELECT account_id, deleted_at FROM agent WHERE id = ?');
    this.active = new ReadQuery(
      source,
      'SELECT deployment_id FROM active_deployment WHERE agent_id = ? AND environment = ?',
    );
    this.name = new ReadQuery(source, 'SELECT name FROM agent WHERE id = ?');
  }

  agentsOf(accountId: string) {
    return this.source()
      .getRepository(AgentRow)
      .find({ where: { accountId }, order: { createdAt: 'ASC', id: 'ASC' } });
  }

  agent(agentId: string) {
    return this.source().getRepository(AgentRow).findOneBy({ id: agentId });
  }

  branchesOf(agentId: string) {
    return this.source()
      .getRepository(BranchRow)
      .find({ where: { agentId }, order: { createdAt: 'ASC', id: 'ASC' } });
  }

  branch(agentId: string, branchId: string) {
    return this.source().getRepository(BranchRow).findOneBy({ agentId, id: branchId });
  }

  topicsOf(agentId: string, branchId: string) {
    return this.source()
      .getRepository(BranchTopicRow)
      .find({ where: { agentId, branchId }, order: { name: 'ASC' } });
  }

  topicOrFail(agentId: string, branchId: string, topicId: string) {
    return this.source().getRepository(BranchTopicRow).findOneByOrFail({ agentId, branchId, topicId });
  }

  activeDeploymentsOf(agentId: string) {
    return this.source().getRepository(ActiveDeploymentRow).findBy({ agentId });
  }

  async deploymentsByIds(ids: string[]) {
    return ids.length
      ? this.source()
          .getRepository(DeploymentRow)
          .findBy(ids.map((id) => ({ id })))
      : [];
  }

  deploymentsOf(agentId: string, environment?: string) {
    return this.source()
      .getRepository(DeploymentRow)
      .find({ where: { agentId, ...(environment ? { environment } : {}) }, order: { artifactVersion: 'DESC' } });
  }

  deploymentOf(agentId: string, deploymentId: string) {
    return this.source().getRepository(DeploymentRow).findOneBy({ id: deploymentId, agentId });
  }

  deploymentOrFail(deploymentId: string) {
    return this.source().getRepository(DeploymentRow).findOneByOrFail({ id: deploymentId });
  }

  mainVersionOrFail(agentId: string, sequence: number) {
    return this.source().getRepository(MainVersionRow).findOneByOrFail({ agentId, sequence });
  }

  ownerOf(agentId: string) {
    return this.owner.get(agentId);
  }

  activeDeploymentId(agentId: string, environment: string) {
    return this.active.get(agentId, environment);
  }

  nameOf(agentId: string) {
    return this.name.get(agentId);
  }
}

/** The agents read model's queries on whichever generation serves now (one TypeORM implementation for both databases). */
export function agentsQueries(readModels: ReadModelSources): AgentsQueries {
  return new AgentsReadModel(() => readModels.source(AGENTS_READ_MODEL));
}
