import type { TestRunEvent } from '../../src/agent-tests/test-run.events';
import { defineProjection, handlerFor } from '../../src/read-models/projection';
import { TestResultRow, TestRunRow } from './test-runs.entities';
import { TEST_RUNS_READ_MODEL } from './name';

const on = handlerFor<TestRunEvent>();

/** Agent test runs and their case results (contract §19), from the test-run streams. */
export const testRunsProjection = defineProjection({
  name: TEST_RUNS_READ_MODEL,
  version: 1,
  entities: [TestRunRow, TestResultRow],
  handles: {
    TestRunStarted: on<'TestRunStarted'>(async ({ data, position }, _em, rows) => {
      await rows.upsert(TestRunRow, {
        id: data.testRunId,
        agentId: data.agentId,
        accountId: data.accountId,
        deploymentId: data.deploymentId,
        environment: data.environment,
        status: 'running',
        startedAt: data.startedAt,
        finishedAt: null,
        passed: 0,
        failed: 0,
        position,
      });
    }),
    TestCaseRan: on<'TestCaseRan'>(async ({ data }, _em, rows) => {
      const r = data.result;
      await rows.upsert(TestResultRow, {
        runId: data.testRunId,
        idx: data.index,
        testId: r.testId,
        name: r.name,
        passed: r.passed,
        turns: JSON.stringify(r.turns),
      });
      await rows.increment(TestRunRow, { id: data.testRunId }, r.passed ? 'passed' : 'failed', 1);
    }),
    TestRunFinished: on<'TestRunFinished'>(async ({ data }, _em, rows) => {
      await rows.update(
        TestRunRow,
        { id: data.testRunId },
        { status: data.status, finishedAt: data.finishedAt, passed: data.passed, failed: data.failed },
      );
    }),
  },
});
