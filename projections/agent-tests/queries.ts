import type { DataSource } from 'typeorm';
import type { Plain, ReadModelSources } from '../query-kit';
import { BranchTestRow } from './agent-tests.entities';
import { AGENT_TESTS_READ_MODEL } from './name';

export { AGENT_TESTS_READ_MODEL } from './name';

export type BranchTest = Plain<BranchTestRow>;

/** The agent-tests read model's queries: the test cases of a branch. */
export interface AgentTestsQueries {
  /** A branch's test cases by name. */
  testsOf(agentId: string, branchId: string): Promise<BranchTest[]>;
  test(agentId: string, branchId: string, testId: string): Promise<BranchTest | null>;
}

class AgentTestsReadModel implements AgentTestsQueries {
  constructor(private readonly source: () => DataSource) {}

  testsOf(agentId: string, branchId: string) {
    return this.source()
      .getRepository(BranchTestRow)
      .find({ where: { agentId, branchId }, order: { name: 'ASC' } });
  }

  test(agentId: string, branchId: string, testId: string) {
    return this.source().getRepository(BranchTestRow).findOneBy({ agentId, branchId, testId });
  }
}

export function agentTestsQueries(readModels: ReadModelSources): AgentTestsQueries {
  return new AgentTestsReadModel(() => readModels.source(AGENT_TESTS_READ_MODEL));
}
