import type { Environment, TestCase } from '../agents/agent.events';
import type { DomainEvent } from '../commands/decider';

/** What one turn of a test case got, and where it fell short of its expectation (empty: it passed). */
export interface TurnOutcome {
  user: string;
  response: string;
  citedTopic: string;
  actions: string[];
  failures: string[];
}

export interface CaseResult {
  testId: string;
  name: string;
  passed: boolean;
  turns: TurnOutcome[];
  /** the test conversation it ran in (TEST-<uuid>: no API lists it) */
  conversationId: string;
}

type TestRunStatus = 'running' | 'passed' | 'failed';

export type TestRunEvent =
  | DomainEvent<
      'TestRunStarted',
      {
        testRunId: string;
        agentId: string;
        accountId: string;
        /** the deployment tested: the one the merge or promotion created */
        deploymentId: string;
        environment: Environment;
        /** main's suite at the deployment's version, as it was when the run started */
        cases: TestCase[];
        startedAt: string;
      }
    >
  | DomainEvent<'TestCaseRan', { testRunId: string; index: number; result: CaseResult; ranAt: string }>
  | DomainEvent<
      'TestRunFinished',
      {
        testRunId: string;
        status: Exclude<TestRunStatus, 'running'>;
        passed: number;
        failed: number;
        finishedAt: string;
      }
    >;

export const TEST_RUN_STREAM_PREFIX = 'test-run-';
export const testRunStream = (testRunId: string) => `${TEST_RUN_STREAM_PREFIX}${testRunId}`;
