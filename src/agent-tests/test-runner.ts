import type { Logger } from 'pino';
import type { TestCase } from '../agents/agent.events';
import type { ConversationEngine } from '../conversations/engine/conversation-engine';
import { TEST_CONVERSATION_PREFIX } from '../conversations/conversation.events';
import type { RecordedEvent } from '../event-store/event-store.port';
import type { Clock } from '../platform/clock/clock';
import type { CommandContext } from '../commands/command-context';
import { DomainError } from '../platform/errors/domain-error';
import { RunsBehindTheLog, type BehindTheLogWork } from '../process-managers/behind-the-log';
import type { ProcessManager } from '../process-managers/process-manager';
import { failuresOf } from './expectations';
import type { TestRunState } from './test-run.decider';
import type { TestRunCommands } from './test-run-commands';
import { TEST_RUN_STREAM_PREFIX, type CaseResult, type TestRunEvent, type TurnOutcome } from './test-run.events';

export interface TestRunnerDeps {
  /** the handler of test run streams, shared with TestRuns, which starts the runs */
  runs: TestRunCommands;
  clock: Clock;
  engine: ConversationEngine;
  newId: () => string;
  logger: Logger;
  /** a pause between two cases (TEST_RUN_CASE_PAUSE_MS), so a long suite leaves room for live conversations */
  casePauseMs: number;
}

const TEST_RUNNER = 'agent-test-runs';

/**
 * Runs agent test runs behind the log, one case per event: the run's start runs case 0, each
 * recorded result runs the next, the last one finishes the run (test-run.decider.ts). Only a
 * run's newest event moves it, so after a restart the events past the checkpoint run again and
 * the run picks up at the first case without a result: a run survives a restart and finishes.
 * A case whose result was not recorded before a crash runs again in a fresh test conversation.
 */
@RunsBehindTheLog()
export class TestRunner implements BehindTheLogWork {
  private lastCaseAt = 0;

  constructor(private readonly d: TestRunnerDeps) {}

  get processManagers(): ProcessManager[] {
    return [this.processManager()];
  }

  processManager(): ProcessManager {
    const pause = this.d.casePauseMs;
    return {
      name: TEST_RUNNER,
      wants: (event: RecordedEvent) => event.streamId.startsWith(TEST_RUN_STREAM_PREFIX),
      partitionBy: (event: RecordedEvent) => event.streamId,
      // the pause waits outside the handler, where stopping the app does not wait for it
      pace: pause > 0 ? { delayMs: () => Math.max(0, this.lastCaseAt + pause - Date.now()) } : undefined,
      handles: { TestRunStarted: (e) => this.advance(e), TestCaseRan: (e) => this.advance(e) },
      onDeadLetter: (e) => this.caseCouldNotRun(e),
    };
  }

  /**
   * A case whose run kept failing (a fault, not a refusal) was dead-lettered: record it as failed
   * so the run goes on to its next case and finishes, instead of staying `running` for ever. The
   * fault itself is in the dead letters, for the operator; the result names no internals.
   */
  private async caseCouldNotRun(event: RecordedEvent): Promise<void> {
    const { state } = await this.d.runs.load(event.streamId);
    if (!state.exists || state.finished) return;
    const next = state.results.length;
    if (!triggers(event, next)) return;
    const test = state.cases[next];
    const result: CaseResult = {
      testId: test.id,
      name: test.name,
      passed: false,
      turns: test.turns.map((step) => missed(step.user, 'the test case could not run: an internal error')),
      conversationId: '',
    };
    await this.d.runs.handle(
      event.streamId,
      { type: 'RecordCaseResult', index: next, result, now: this.d.clock.nowIso() },
      {
        actor: 'system:agent-tests',
        correlationId: state.testRunId,
        causationId: event.id,
        idempotencyKey: `${event.id}:dead-letter`,
      },
    );
  }

  private async advance(event: RecordedEvent): Promise<void> {
    const { state } = await this.d.runs.load(event.streamId);
    if (!state.exists || state.finished) return;
    const next = state.results.length;
    if (!triggers(event, next)) return;
    const context: CommandContext = {
      actor: 'system:agent-tests',
      correlationId: state.testRunId,
      causationId: event.id,
    };
    const result = await this.runCase(state, state.cases[next], context);
    this.lastCaseAt = Date.now();
    // the result's events take ids derived from the trigger: a repeat after a crash appends nothing
    await this.d.runs.handle(
      event.streamId,
      { type: 'RecordCaseResult', index: next, result, now: this.d.clock.nowIso() },
      { ...context, idempotencyKey: event.id },
    );
  }

  /** One case in a conversation of its own on the deployment under test, through the engine and the runtime. */
  private async runCase(run: TestRunState, test: TestCase, context: CommandContext): Promise<CaseResult> {
    const conversationId = `${TEST_CONVERSATION_PREFIX}${this.d.newId()}`;
    const turns: TurnOutcome[] = [];
    const outcome = (): CaseResult => ({
      testId: test.id,
      name: test.name,
      passed: turns.length === test.turns.length && turns.every((t) => t.failures.length === 0),
      turns,
      conversationId,
    });
    try {
      await this.d.engine.start(
        {
          agentId: run.agentId,
          deploymentId: run.deploymentId,
          conversationId,
          channel: 'TEST',
          environment: run.environment,
          attributes: test.state,
        },
        context,
      );
      let ended = false;
      for (const step of test.turns) {
        if (ended) {
          turns.push(missed(step.user, 'the conversation had ended before this turn'));
          continue;
        }
        const conversation = await this.d.engine.current(conversationId);
        const answer = await this.d.engine.think(conversation, { text: step.user });
        await this.d.engine.record(conversationId, answer, context);
        const actions = answer.turn.functionEvents.filter((f) => f.status === 'ok').map((f) => f.name);
        ended = answer.effects.ended;
        turns.push({
          user: step.user,
          response: answer.turn.agentResponse,
          citedTopic: answer.turn.citedTopic,
          actions,
          failures: failuresOf(step.expect, {
            response: answer.turn.agentResponse,
            citedTopic: answer.turn.citedTopic,
            actions,
            handoff: answer.effects.handoff !== null,
            outOfDomain: answer.turn.isOod,
            ended: answer.effects.ended,
          }),
        });
      }
      await this.d.engine.end(conversationId, 'user', context);
    } catch (error) {
      // a refusal (the agent or its deployment is gone) fails the case; the world failing is retried
      if (!(error instanceof DomainError)) throw error;
      this.d.logger.info({ testRunId: run.testRunId, test: test.name, err: error }, 'a test case could not run');
      for (const step of test.turns.slice(turns.length))
        turns.push(missed(step.user, `the test conversation could not run: ${error.message}`));
    }
    return outcome();
  }
}

/** Whether the event is the run's newest, the one that runs case `next` (older ones move nothing). */
function triggers(event: RecordedEvent, next: number): boolean {
  const trigger = event as unknown as TestRunEvent;
  return trigger.type === 'TestRunStarted'
    ? next === 0
    : trigger.type === 'TestCaseRan' && trigger.data.index === next - 1;
}

const missed = (user: string, failure: string): TurnOutcome => ({
  user,
  response: '',
  citedTopic: '',
  actions: [],
  failures: [failure],
});
