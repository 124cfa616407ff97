import type { ConversationEngine } from '../../src/conversations/engine/conversation-engine';
import type { SqliteEventStore } from '../../src/event-store/sqlite/sqlite-event-store';
import { Commands } from '../../src/commands/commands';
import { testRunDecider } from '../../src/agent-tests/test-run.decider';
import { testRunStream } from '../../src/agent-tests/test-run.events';
import { TestRunner } from '../../src/agent-tests/test-runner';
import { SystemClock } from '../../src/platform/clock/clock';
import { DeadLetterStore } from '../../src/subscriptions/dead-letters';
import { ProcessManagers } from '../../src/process-managers/process-managers';
import { waitUntil } from '../fixtures/counter-projection';
import { ReadSide, silentLogger } from '../fixtures/read-side-harness';

describe('a test run whose case is dead-lettered', () => {
  let side: ReadSide;
  let store: SqliteEventStore;
  let managers: ProcessManagers | null = null;

  beforeEach(async () => {
    side = new ReadSide();
    store = await side.openStore();
  });
  afterEach(async () => {
    await managers?.stop();
    await side.cleanup();
  });

  it('records the case as failed and finishes the run, instead of staying running', async () => {
    const platform = await side.openPlatform();
    const clock = new SystemClock();
    // Fault injection: an engine with a bug (a RangeError, not a refusal). Nothing real fails on
    // demand like this, and the path under test is what the runner does once it has failed.
    let starts = 0;
    const engine = {
      start: async () => {
        starts++;
        throw new RangeError('Maximum call stack size exceeded');
      },
    } as unknown as ConversationEngine;
    const runs = new Commands(store, clock).for(testRunDecider);
    const runner = new TestRunner({
      runs,
      clock,
      engine,
      newId: () => `${Math.random()}`,
      logger: silentLogger,
      casePauseMs: 0,
    });
    const deadLetters = new DeadLetterStore(platform);
    managers = new ProcessManagers(store, platform, silentLogger, undefined, deadLetters);
    managers.register(runner.processManager());
    await managers.start();

    const stream = testRunStream('tr_1');
    const cases = [
      { id: 'c1', name: 'hours', turns: [{ user: 'when are you open?' }], state: {} },
      { id: 'c2', name: 'price', turns: [{ user: 'how much?' }, { user: 'thanks' }], state: {} },
    ];
    await runs.handle(
      stream,
      {
        type: 'StartTestRun',
        testRunId: 'tr_1',
        agentId: 'PROJECT-1',
        accountId: 'ws-1',
        deploymentId: 'dep-1',
        environment: 'sandbox',
        cases,
        now: clock.nowIso(),
      },
      { actor: 'test', correlationId: 'tr_1', causationId: null },
    );

    await waitUntil(async () => (await runs.load(stream)).state.finished, 'the run finishes', 15_000, 20);
    const { state } = await runs.load(stream);
    expect(state.results.map((r) => [r.name, r.passed, r.turns.length])).toEqual([
      ['hours', false, 1],
      ['price', false, 2],
    ]);
    expect(state.results[1].turns[0].failures).toEqual(['the test case could not run: an internal error']);
    // each case was tried (and retried) before it was set aside, and both are in the dead letters
    expect(starts).toBeGreaterThanOrEqual(2);
    expect(await deadLetters.list({ kind: 'process-manager', name: 'agent-test-runs' })).toHaveLength(2);
  });
});
