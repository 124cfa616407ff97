import { Inject, Injectable } from '@nestjs/common';
import type { DeploymentRecord, TestCase } from '../agents/agent.events';
import { Clock } from '../platform/clock/clock';
import type { CommandContext } from '../commands/command-context';
import { DomainError } from '../platform/errors/domain-error';
import { IdGenerator } from '../platform/ids/ids';
import { ReadModels } from '../read-models/read-models.service';
import { testRunsQueries, type TestRunsQueries, TEST_RUNS_READ_MODEL } from '../../projections/test-runs/queries';
import { testRunStream } from './test-run.events';
import { TEST_RUN_COMMANDS, type TestRunCommands } from './test-run-commands';

/**
 * Starts agent test runs and answers whether a deployment's tests pass (contract §19). The run
 * itself happens behind the log (test-runner.ts); starting one is a single append, so a merge or
 * a promotion answers at once with the run's id, readable as soon as it is handed out.
 */
@Injectable()
export class TestRuns {
  private readonly queries: TestRunsQueries;

  constructor(
    @Inject(TEST_RUN_COMMANDS) private readonly runs: TestRunCommands,
    private readonly clock: Clock,
    private readonly ids: IdGenerator,
    private readonly readModels: ReadModels,
  ) {
    this.queries = testRunsQueries(readModels);
  }

  /** Starts a run of `cases` (main's suite at the deployment's version) against a new deployment. */
  async start(
    agentId: string,
    accountId: string,
    deployment: DeploymentRecord,
    cases: TestCase[],
    context: CommandContext,
  ): Promise<string> {
    const testRunId = `tr_${this.ids.short(10)}`;
    const result = await this.runs.handle(
      testRunStream(testRunId),
      {
        type: 'StartTestRun',
        testRunId,
        agentId,
        accountId,
        deploymentId: deployment.deploymentId,
        environment: deployment.environment,
        cases,
        now: this.clock.nowIso(),
      },
      context,
    );
    await this.readModels.waitFor(result.position, [TEST_RUNS_READ_MODEL]);
    return testRunId;
  }

  /** `requireTestsPassing`: refuses unless the deployment's latest run passed (a running one has not). */
  async requirePassing(deploymentId: string): Promise<void> {
    const latest = await this.queries.latestOf(deploymentId);
    if (latest?.status === 'passed') return;
    const why = !latest
      ? 'this deployment has no test run'
      : latest.status === 'running'
        ? `its latest test run ${latest.id} is still running`
        : `its latest test run ${latest.id} failed (${latest.failed} of ${latest.passed + latest.failed} cases)`;
    throw new DomainError('TESTS_FAILING', `cannot promote: ${why}`, 409, { testRunId: latest?.id ?? null });
  }
}
