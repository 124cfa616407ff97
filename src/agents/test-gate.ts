import type { CommandContext } from '../commands/command-context';
import type { DeploymentRecord, TestCase } from './agent.events';

/**
 * What the Agents API needs of agent tests (contract §19): a run of main's suite started on every
 * merge and promotion, and the gate `requireTestsPassing` puts on a promotion. Declared here and
 * answered by agent-tests (TestRuns), which depends on agents and not the other way; bound
 * globally by TestRunsModule at the composition root.
 */
export interface TestGate {
  /** Starts a run of `cases` against a new deployment; the run's id, readable at once. */
  start(
    agentId: string,
    accountId: string,
    deployment: DeploymentRecord,
    cases: TestCase[],
    context: CommandContext,
  ): Promise<string>;
  /** Refuses (409 TESTS_FAILING) unless the deployment's latest run passed. */
  requirePassing(deploymentId: string): Promise<void>;
}

export const TEST_GATE = Symbol('TEST_GATE');
