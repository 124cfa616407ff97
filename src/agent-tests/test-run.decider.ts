import type { Environment, TestCase } from '../agents/agent.events';
import type { Decider } from '../commands/decider';
import { conflict } from '../platform/errors/domain-error';
import type { CaseResult, TestRunEvent } from './test-run.events';

export interface TestRunState {
  exists: boolean;
  testRunId: string;
  agentId: string;
  deploymentId: string;
  environment: Environment;
  cases: TestCase[];
  /** results so far, in case order: the next case to run is `results.length` */
  results: CaseResult[];
  finished: boolean;
}

export type TestRunCommand =
  | {
      type: 'StartTestRun';
      testRunId: string;
      agentId: string;
      accountId: string;
      deploymentId: string;
      environment: Environment;
      cases: TestCase[];
      now: string;
    }
  | { type: 'RecordCaseResult'; index: number; result: CaseResult; now: string };

const initialState = (): TestRunState => ({
  exists: false,
  testRunId: '',
  agentId: '',
  deploymentId: '',
  environment: 'sandbox',
  cases: [],
  results: [],
  finished: false,
});

function evolve(state: TestRunState, event: TestRunEvent): TestRunState {
  switch (event.type) {
    case 'TestRunStarted':
      return {
        ...state,
        exists: true,
        testRunId: event.data.testRunId,
        agentId: event.data.agentId,
        deploymentId: event.data.deploymentId,
        environment: event.data.environment,
        cases: event.data.cases,
      };
    case 'TestCaseRan':
      return { ...state, results: [...state.results, event.data.result] };
    case 'TestRunFinished':
      return { ...state, finished: true };
  }
}

function finished(testRunId: string, results: CaseResult[], now: string): TestRunEvent {
  const passed = results.filter((r) => r.passed).length;
  const failed = results.length - passed;
  return {
    type: 'TestRunFinished',
    data: { testRunId, status: failed === 0 ? 'passed' : 'failed', passed, failed, finishedAt: now },
  };
}

/**
 * A test run (contract §19): started with the suite it runs, then one result per case in order,
 * finished with the last one. Recording a case that is not the next one decides nothing, so a
 * runner that runs a case again after a restart (its checkpoint was before the result) changes
 * nothing.
 */
function decide(command: TestRunCommand, state: TestRunState): TestRunEvent[] {
  switch (command.type) {
    case 'StartTestRun': {
      if (state.exists) throw conflict('TEST_RUN_EXISTS', 'this test run exists');
      const { testRunId, agentId, accountId, deploymentId, environment, cases, now } = command;
      const data = { testRunId, agentId, accountId, deploymentId, environment, cases };
      const started: TestRunEvent = { type: 'TestRunStarted', data: { ...data, startedAt: now } };
      // an empty suite passes at once: there is nothing to wait for
      return data.cases.length === 0 ? [started, finished(data.testRunId, [], now)] : [started];
    }
    case 'RecordCaseResult': {
      if (!state.exists || state.finished || command.index !== state.results.length) return [];
      const ran: TestRunEvent = {
        type: 'TestCaseRan',
        data: { testRunId: state.testRunId, index: command.index, result: command.result, ranAt: command.now },
      };
      const results = [...state.results, command.result];
      return results.length === state.cases.length ? [ran, finished(state.testRunId, results, command.now)] : [ran];
    }
  }
}

export const testRunDecider: Decider<TestRunState, TestRunCommand, TestRunEvent> = {
  initialState,
  evolve,
  decide,
};
