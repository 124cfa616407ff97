import type { DataSource } from 'typeorm';
import type { Plain, ReadModelSources } from '../query-kit';
import { TestResultRow, TestRunRow } from './test-runs.entities';
import { TEST_RUNS_READ_MODEL } from './name';

export { TEST_RUNS_READ_MODEL } from './name';

export type TestRun = Plain<TestRunRow>;
export type TestResult = Plain<TestResultRow>;

/** The most runs one listing answers: newest first. */
const TEST_RUN_LIST_LIMIT = 100;

/** The test-runs read model's queries. */
export interface TestRunsQueries {
  run(agentId: string, testRunId: string): Promise<TestRun | null>;
  /** An agent's runs, newest first (at most TEST_RUN_LIST_LIMIT), of one deployment when named. */
  runsOf(agentId: string, deploymentId?: string): Promise<TestRun[]>;
  /** The results of some runs, in case order. */
  resultsOf(runIds: string[]): Promise<TestResult[]>;
  /** The run a deployment started last, or null. */
  latestOf(deploymentId: string): Promise<TestRun | null>;
}

class TestRunsReadModel implements TestRunsQueries {
  constructor(private readonly source: () => DataSource) {}

  run(agentId: string, testRunId: string) {
    return this.source().getRepository(TestRunRow).findOneBy({ id: testRunId, agentId });
  }

  runsOf(agentId: string, deploymentId?: string) {
    return this.source()
      .getRepository(TestRunRow)
      .find({
        where: { agentId, ...(deploymentId ? { deploymentId } : {}) },
        order: { position: 'DESC' },
        take: TEST_RUN_LIST_LIMIT,
      });
  }

  async resultsOf(runIds: string[]) {
    if (runIds.length === 0) return [];
    return this.source()
      .getRepository(TestResultRow)
      .find({ where: runIds.map((runId) => ({ runId })), order: { runId: 'ASC', idx: 'ASC' } });
  }

  async latestOf(deploymentId: string) {
    const [row] = await this.source()
      .getRepository(TestRunRow)
      .find({ where: { deploymentId }, order: { position: 'DESC' }, take: 1 });
    return row ?? null;
  }
}

export function testRunsQueries(readModels: ReadModelSources): TestRunsQueries {
  return new TestRunsReadModel(() => readModels.source(TEST_RUNS_READ_MODEL));
}
