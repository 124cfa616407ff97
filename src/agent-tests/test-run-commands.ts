import type { CommandHandler } from '../commands/command-handler';
import { commandHandlerProvider } from '../commands/command-handler.provider';
import { testRunDecider, type TestRunCommand, type TestRunState } from './test-run.decider';
import type { TestRunEvent } from './test-run.events';

/**
 * The one handler of `test-run-` streams: a merge or a promotion starts a run (TestRuns), the
 * runner behind the log records each case's result (TestRunner).
 */
export const TEST_RUN_COMMANDS = Symbol('TestRunCommands');
export type TestRunCommands = CommandHandler<TestRunState, TestRunCommand, TestRunEvent>;

export const testRunCommands = commandHandlerProvider(TEST_RUN_COMMANDS, testRunDecider);
