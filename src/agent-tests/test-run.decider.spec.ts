import type { TestCase } from '../agents/agent.events';
import { testRunDecider, type TestRunCommand } from './test-run.decider';
import type { CaseResult, TestRunEvent } from './test-run.events';

const NOW = '2026-05-01T12:00:00.000Z';
const testCase = (name: string): TestCase => ({ id: `test_${name}`, name, turns: [{ user: 'hi' }], state: {} });
const start = (cases: TestCase[]): TestRunCommand => ({
  type: 'StartTestRun',
  testRunId: 'tr_1',
  agentId: 'ag1',
  accountId: 'acme',
  deploymentId: 'd1',
  environment: 'sandbox',
  cases,
  now: NOW,
});
const result = (name: string, passed: boolean): CaseResult => ({
  testId: `test_${name}`,
  name,
  passed,
  turns: [],
  conversationId: `TEST-${name}`,
});
const record = (index: number, r: CaseResult): TestRunCommand => ({
  type: 'RecordCaseResult',
  index,
  result: r,
  now: NOW,
});

function given(events: TestRunEvent[]) {
  return events.reduce(testRunDecider.evolve, testRunDecider.initialState());
}

describe('test run decider', () => {
  it('an empty suite starts and passes in one decision', () => {
    const events = testRunDecider.decide(start([]), given([]));
    expect(events.map((e) => e.type)).toEqual(['TestRunStarted', 'TestRunFinished']);
    expect(events[1].data).toMatchObject({ status: 'passed', passed: 0, failed: 0 });
  });

  it('records results in case order and finishes with the last one: failed when any case failed', () => {
    let history = testRunDecider.decide(start([testCase('a'), testCase('b')]), given([]));
    const first = testRunDecider.decide(record(0, result('a', true)), given(history));
    expect(first.map((e) => e.type)).toEqual(['TestCaseRan']);
    history = [...history, ...first];
    const last = testRunDecider.decide(record(1, result('b', false)), given(history));
    expect(last.map((e) => e.type)).toEqual(['TestCaseRan', 'TestRunFinished']);
    expect(last[1].data).toMatchObject({ status: 'failed', passed: 1, failed: 1 });
  });

  it('a result that is not the next case, or comes after the end, decides nothing (a repeat after a restart)', () => {
    const history = [...testRunDecider.decide(start([testCase('a')]), given([]))];
    const done = [...history, ...testRunDecider.decide(record(0, result('a', true)), given(history))];
    expect(testRunDecider.decide(record(1, result('a', true)), given(history))).toEqual([]);
    expect(testRunDecider.decide(record(0, result('a', true)), given(done))).toEqual([]);
    expect(testRunDecider.decide(record(0, result('a', true)), given([]))).toEqual([]);
  });

  it('a run is started once', () => {
    const history = testRunDecider.decide(start([]), given([]));
    expect(() => testRunDecider.decide(start([]), given(history))).toThrow(/exists/);
  });
});
