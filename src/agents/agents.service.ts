import { Inject, Injectable } from '@nestjs/common';
import type { CommandContext } from '../commands/command-context';
import { notFound } from '../platform/errors/domain-error';
import { IdGenerator } from '../platform/ids/ids';
import { parseBranchId } from '../platform/ids/prefixed-ids';
import { ReadModels } from '../read-models/read-models.service';
import { AccountsService } from '../accounts/accounts.service';
import { TEST_GATE, type TestGate } from './test-gate';
import { agentsQueries, type Agent, type AgentsQueries, type Branch } from '../../projections/agents/queries';
import { MAIN, type AgentState } from './agent.decider';
import { ENVIRONMENTS, type Environment } from './agent.events';
import { AgentCommands } from './agent-commands';
import type {
  BehaviorDto,
  CreateAgentDto,
  CreateTopicDto,
  MergeDto,
  PatchTopicDto,
  PromoteDto,
  RollbackDto,
} from './dto/agent.dto';
import { agentView, branchView, deploymentView, topicView } from './views';

/** The Agents API (interface.md, contract §5): commands on agent streams, answers from the agents read model. */
@Injectable()
export class AgentsService {
  private readonly db: AgentsQueries;

  constructor(
    private readonly commands: AgentCommands,
    readModels: ReadModels,
    private readonly ids: IdGenerator,
    private readonly accounts: AccountsService,
    @Inject(TEST_GATE) private readonly testRuns: TestGate,
  ) {
    this.db = agentsQueries(readModels);
  }

  async create(accountId: string, dto: CreateAgentDto, context: CommandContext) {
    await this.accounts.get(accountId);
    const agentId = this.ids.short(8);
    const languageCode = dto.responseSettings.languageCode ?? 'en-GB';
    await this.commands.execute(
      agentId,
      {
        type: 'CreateAgent',
        agentId,
        accountId,
        name: dto.name,
        greeting: dto.responseSettings.greeting,
        languageCode,
      },
      context,
    );
    return this.get(agentId);
  }

  async list(accountId: string) {
    const rows = await this.db.agentsOf(accountId);
    return rows.filter((r) => r.deletedAt === null).map(agentView);
  }

  async get(agentId: string) {
    return agentView(await this.agentRow(agentId));
  }

  async delete(agentId: string, context: CommandContext): Promise<void> {
    await this.commands.execute(agentId, { type: 'DeleteAgent' }, context);
  }

  async listBranches(agentId: string) {
    await this.agentRow(agentId);
    const rows = await this.db.branchesOf(agentId);
    return { branches: rows.filter((r) => r.status !== 'deleted').map(branchView) };
  }

  async createBranch(agentId: string, branchName: string, context: CommandContext) {
    const branchId = this.ids.short(8);
    await this.commands.execute(agentId, { type: 'CreateBranch', branchId, branchName }, context);
    return branchView(await this.branchRow(agentId, branchId));
  }

  async deleteBranch(agentId: string, rawBranchId: string, context: CommandContext): Promise<void> {
    await this.commands.execute(agentId, { type: 'DeleteBranch', branchId: this.branchId(rawBranchId) }, context);
  }

  async behavior(agentId: string, rawBranchId: string) {
    const row = await this.branchRow(agentId, this.branchId(rawBranchId));
    return { behavior: row.behavior };
  }

  async editBehavior(agentId: string, rawBranchId: string, dto: BehaviorDto, context: CommandContext) {
    await this.commands.execute(
      agentId,
      { type: 'EditBehavior', branchId: this.branchId(rawBranchId), behavior: dto.behavior },
      context,
    );
    return { success: true, behavior: dto.behavior };
  }

  async topics(agentId: string, rawBranchId: string) {
    const branchId = this.branchId(rawBranchId);
    await this.branchRow(agentId, branchId);
    const rows = await this.db.topicsOf(agentId, branchId);
    return rows.map(topicView);
  }

  async addTopic(agentId: string, rawBranchId: string, dto: CreateTopicDto, context: CommandContext) {
    const branchId = this.branchId(rawBranchId);
    const topicId = `topic_${this.ids.short(8)}`;
    const topic = {
      id: topicId,
      name: dto.name,
      content: dto.content,
      exampleQueries: dto.exampleQueries.queries,
      actions: dto.actions ?? '',
      isActive: dto.isActive ?? true,
    };
    await this.commands.execute(agentId, { type: 'AddTopic', branchId, topic }, context);
    return topicView(await this.db.topicOrFail(agentId, branchId, topicId));
  }

  async editTopic(
    agentId: string,
    rawBranchId: string,
    topicId: string,
    dto: PatchTopicDto,
    context: CommandContext,
  ): Promise<void> {
    const changes = {
      name: dto.name,
      content: dto.content,
      exampleQueries: dto.exampleQueries?.queries,
      actions: dto.actions,
      isActive: dto.isActive,
    };
    await this.commands.execute(
      agentId,
      { type: 'EditTopic', branchId: this.branchId(rawBranchId), topicId, changes },
      context,
    );
  }

  /**
   * Appends words to a topic's example queries on a branch (the learning loop, docs/api/agents.md),
   * through the agent's command path like any topic edit; `added` is false when the topic already
   * had those words, and nothing was recorded.
   */
  async addExampleQuery(agentId: string, rawBranchId: string, topicId: string, query: string, context: CommandContext) {
    const branchId = this.branchId(rawBranchId);
    const { events } = await this.commands.execute(
      agentId,
      { type: 'AddExampleQuery', branchId, topicId, query },
      context,
    );
    return { added: events.length > 0, topic: topicView(await this.db.topicOrFail(agentId, branchId, topicId)) };
  }

  async removeTopic(agentId: string, rawBranchId: string, topicId: string, context: CommandContext): Promise<void> {
    await this.commands.execute(
      agentId,
      { type: 'RemoveTopic', branchId: this.branchId(rawBranchId), topicId },
      context,
    );
  }

  async merge(agentId: string, rawBranchId: string, dto: MergeDto, context: CommandContext) {
    const deploymentId = this.ids.uuid();
    const message = dto.deploymentMessage ?? '';
    const { state } = await this.commands.execute(
      agentId,
      {
        type: 'MergeBranch',
        branchId: this.branchId(rawBranchId),
        message,
        resolutions: dto.conflictResolutions ?? [],
        deploymentId,
        actor: context.actor,
      },
      context,
    );
    const testRunId = await this.startTests(state, deploymentId, context);
    return { sequence: String(state.mainSequence), message, testRunIds: [testRunId] };
  }

  async active(agentId: string) {
    await this.agentRow(agentId);
    const active = await this.db.activeDeploymentsOf(agentId);
    const rows = await this.db.deploymentsByIds(active.map((a) => a.deploymentId));
    const byId = new Map(rows.map((r) => [r.id, r]));
    const activeDeployments = Object.fromEntries(
      ENVIRONMENTS.map((env) => {
        const id = active.find((a) => a.environment === env)?.deploymentId;
        const row = id ? byId.get(id) : undefined;
        return [env, row ? deploymentView(row) : null];
      }),
    );
    return { activeDeployments };
  }

  async deployments(agentId: string, environment?: Environment) {
    await this.agentRow(agentId);
    const rows = await this.db.deploymentsOf(agentId, environment);
    return { deployments: rows.map(deploymentView) };
  }

  async promote(agentId: string, deploymentId: string, dto: PromoteDto, context: CommandContext) {
    const newDeploymentId = this.ids.uuid();
    if (dto.requireTestsPassing) {
      // the source must be this agent's: another agent's id is unknown here, as the decider would say
      if (!(await this.db.deploymentOf(agentId, deploymentId)))
        throw notFound('DEPLOYMENT_NOT_FOUND', 'deployment not found');
      await this.testRuns.requirePassing(deploymentId);
    }
    const { state } = await this.commands.execute(
      agentId,
      {
        type: 'Promote',
        deploymentId,
        target: dto.targetEnvironment ?? null,
        newDeploymentId,
        actor: context.actor,
        message: dto.deploymentMessage ?? '',
      },
      context,
    );
    const testRunId = await this.startTests(state, newDeploymentId, context);
    return { deployment: deploymentView(await this.db.deploymentOrFail(newDeploymentId)), testRunIds: [testRunId] };
  }

  /** Every merge and promotion runs main's suite at the new deployment's version against it (contract §19). */
  private startTests(state: AgentState, deploymentId: string, context: CommandContext): Promise<string> {
    const deployment = state.deployments.get(deploymentId)!;
    const suite = state.snapshots.get(deployment.version)?.tests ?? new Map();
    return this.testRuns.start(state.agentId, state.accountId, deployment, [...suite.values()], context);
  }

  async rollback(agentId: string, deploymentId: string, dto: RollbackDto, context: CommandContext) {
    await this.commands.execute(
      agentId,
      { type: 'Rollback', deploymentId, message: dto.deploymentMessage ?? '' },
      context,
    );
    return { deployment: deploymentView(await this.db.deploymentOrFail(deploymentId)), testRunIds: [] as string[] };
  }

  private branchId(raw: string): string {
    return raw === MAIN ? MAIN : parseBranchId(raw);
  }

  private async agentRow(agentId: string): Promise<Agent> {
    const row = await this.db.agent(agentId);
    if (!row || row.deletedAt) throw notFound('AGENT_NOT_FOUND', 'agent not found');
    return row;
  }

  private async branchRow(agentId: string, branchId: string): Promise<Branch> {
    await this.agentRow(agentId);
    const row = await this.db.branch(agentId, branchId);
    if (!row || row.status === 'deleted') throw notFound('BRANCH_NOT_FOUND', 'branch not found');
    return row;
  }
}
