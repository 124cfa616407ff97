import { Injectable } from '@nestjs/common';
import { notFound } from '../platform/errors/domain-error';
import { ReadModels } from '../read-models/read-models.service';
import {
  testRunsQueries,
  type TestResult,
  type TestRun,
  type TestRunsQueries,
} from '../../projections/test-runs/queries';

const testRunView = (run: TestRun, results: TestResult[]) => ({
  id: run.id,
  deploymentId: run.deploymentId,
  environment: run.environment,
  status: run.status,
  startedAt: run.startedAt,
  finishedAt: run.finishedAt,
  summary: { passed: run.passed, failed: run.failed },
  results: results.map((r) => ({ testId: r.testId, name: r.name, passed: r.passed, turns: JSON.parse(r.turns) })),
});

/** Test runs by id and by deployment (contract §19), from the test-runs read model. */
@Injectable()
export class TestRunsService {
  private readonly queries: TestRunsQueries;

  constructor(readModels: ReadModels) {
    this.queries = testRunsQueries(readModels);
  }

  async get(agentId: string, testRunId: string) {
    const run = await this.queries.run(agentId, testRunId);
    if (!run) throw notFound('TEST_RUN_NOT_FOUND', 'test run not found');
    return testRunView(run, await this.queries.resultsOf([run.id]));
  }

  async list(agentId: string, deploymentId?: string) {
    const runs = await this.queries.runsOf(agentId, deploymentId);
    const results = await this.queries.resultsOf(runs.map((r) => r.id));
    const byRun = new Map<string, TestResult[]>();
    for (const r of results) byRun.set(r.runId, [...(byRun.get(r.runId) ?? []), r]);
    return { testRuns: runs.map((run) => testRunView(run, byRun.get(run.id) ?? [])) };
  }
}
