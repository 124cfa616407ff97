import { Injectable } from '@nestjs/common';
import { MAIN } from '../agents/agent.decider';
import { AgentCommands } from '../agents/agent-commands';
import type { CommandContext } from '../commands/command-context';
import { notFound } from '../platform/errors/domain-error';
import { IdGenerator } from '../platform/ids/ids';
import { parseBranchId } from '../platform/ids/prefixed-ids';
import { ReadModels } from '../read-models/read-models.service';
import { agentsQueries, type AgentsQueries } from '../../projections/agents/queries';
import { agentTestsQueries, type AgentTestsQueries, type BranchTest } from '../../projections/agent-tests/queries';
import type { CreateTestCaseDto, PatchTestCaseDto } from './dto/test-case.dto';
import { storedTurns } from './test-case-content';

const testCaseView = (row: BranchTest) => ({
  id: row.testId,
  name: row.name,
  turns: JSON.parse(row.turns) as unknown[],
  state: JSON.parse(row.state) as Record<string, unknown>,
});

/** Test cases on branches (contract §19): commands on the agent stream, answers from the agent-tests read model. */
@Injectable()
export class AgentTestsService {
  private readonly agents: AgentsQueries;
  private readonly tests: AgentTestsQueries;

  constructor(
    private readonly commands: AgentCommands,
    private readonly ids: IdGenerator,
    readModels: ReadModels,
  ) {
    this.agents = agentsQueries(readModels);
    this.tests = agentTestsQueries(readModels);
  }

  async list(agentId: string, rawBranchId: string) {
    const branchId = await this.existingBranch(agentId, rawBranchId);
    return (await this.tests.testsOf(agentId, branchId)).map(testCaseView);
  }

  async get(agentId: string, rawBranchId: string, testId: string) {
    const branchId = await this.existingBranch(agentId, rawBranchId);
    const row = await this.tests.test(agentId, branchId, testId);
    if (!row) throw notFound('TEST_NOT_FOUND', 'test not found');
    return testCaseView(row);
  }

  async add(agentId: string, rawBranchId: string, dto: CreateTestCaseDto, context: CommandContext) {
    const branchId = branchIdOf(rawBranchId);
    const test = {
      id: `test_${this.ids.short(8)}`,
      name: dto.name,
      turns: storedTurns(dto.turns),
      state: dto.state ?? {},
    };
    await this.commands.execute(agentId, { type: 'AddTestCase', branchId, test }, context);
    return this.get(agentId, rawBranchId, test.id);
  }

  async edit(agentId: string, rawBranchId: string, testId: string, dto: PatchTestCaseDto, context: CommandContext) {
    const changes = { name: dto.name, turns: dto.turns && storedTurns(dto.turns), state: dto.state };
    await this.commands.execute(
      agentId,
      { type: 'EditTestCase', branchId: branchIdOf(rawBranchId), testId, changes },
      context,
    );
  }

  async remove(agentId: string, rawBranchId: string, testId: string, context: CommandContext) {
    await this.commands.execute(
      agentId,
      { type: 'RemoveTestCase', branchId: branchIdOf(rawBranchId), testId },
      context,
    );
  }

  private async existingBranch(agentId: string, rawBranchId: string): Promise<string> {
    const branchId = branchIdOf(rawBranchId);
    const agent = await this.agents.agent(agentId);
    if (!agent || agent.deletedAt) throw notFound('AGENT_NOT_FOUND', 'agent not found');
    const branch = await this.agents.branch(agentId, branchId);
    if (!branch || branch.status === 'deleted') throw notFound('BRANCH_NOT_FOUND', 'branch not found');
    return branchId;
  }
}

const branchIdOf = (raw: string) => (raw === MAIN ? MAIN : parseBranchId(raw));
