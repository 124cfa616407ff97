import { projectedReadModel, type ProjectedReadModel } from '../../test/support/projection-spec';
import { testRunsQueries, type TestRunsQueries } from './queries';
import { testRunsProjection } from './test-runs.projection';

const AT = '2026-05-01T00:00:00.000Z';

const started = (testRunId: string, deploymentId: string, agentId = 'ag1') => ({
  stream: `test-run-${testRunId}`,
  type: 'TestRunStarted',
  data: {
    testRunId,
    agentId,
    accountId: 'acc1',
    deploymentId,
    environment: 'sandbox',
    cases: [],
    startedAt: AT,
  },
});

const ran = (testRunId: string, index: number, name: string, passed: boolean) => ({
  stream: `test-run-${testRunId}`,
  type: 'TestCaseRan',
  data: {
    testRunId,
    index,
    result: {
      testId: `t-${name}`,
      name,
      passed,
      turns: [{ user: 'hi', response: 'Hello', citedTopic: '', actions: [], failures: passed ? [] : ['no topic'] }],
      conversationId: `TEST-${testRunId}-${index}`,
    },
    ranAt: AT,
  },
});

const finished = (testRunId: string, status: 'passed' | 'failed', passed: number, failed: number) => ({
  stream: `test-run-${testRunId}`,
  type: 'TestRunFinished',
  data: { testRunId, status, passed, failed, finishedAt: '2026-05-01T00:00:05.000Z' },
});

describe('test-runs projection', () => {
  let rm: ProjectedReadModel;
  let queries: TestRunsQueries;
  beforeEach(async () => {
    rm = await projectedReadModel(testRunsProjection);
    queries = testRunsQueries({ source: () => rm.source });
  });
  afterEach(() => rm.close());

  it('a run starts running, counts each case as it runs, and takes its outcome when it finishes', async () => {
    await rm.given(started('r1', 'd1'), ran('r1', 0, 'greets', true), ran('r1', 1, 'refunds', false));
    expect(await queries.run('ag1', 'r1')).toMatchObject({
      deploymentId: 'd1',
      environment: 'sandbox',
      status: 'running',
      finishedAt: null,
      passed: 1,
      failed: 1,
    });
    await rm.given(finished('r1', 'failed', 1, 1));
    expect(await queries.run('ag1', 'r1')).toMatchObject({
      status: 'failed',
      finishedAt: '2026-05-01T00:00:05.000Z',
      passed: 1,
      failed: 1,
    });
    const results = await queries.resultsOf(['r1']);
    expect(results.map((r) => [r.idx, r.name, r.passed])).toEqual([
      [0, 'greets', true],
      [1, 'refunds', false],
    ]);
    expect(JSON.parse(results[1].turns)).toEqual([
      { user: 'hi', response: 'Hello', citedTopic: '', actions: [], failures: ['no topic'] },
    ]);
  });

  it("a run is read by its agent only; another agent's id finds nothing", async () => {
    await rm.given(started('r1', 'd1'));
    expect(await queries.run('ag2', 'r1')).toBeNull();
    expect(await queries.run('ag1', 'nope')).toBeNull();
  });

  it('runs are ordered by log position, not by their (frozen-clock) start time: newest first, per deployment', async () => {
    // ids sort neither way the log does
    await rm.given(started('rb', 'd1'), started('rc', 'd1'), started('ra', 'd1'), started('rd', 'd2'));
    await rm.given(started('re', 'd3', 'ag2'));
    expect((await queries.runsOf('ag1')).map((r) => r.id)).toEqual(['rd', 'ra', 'rc', 'rb']);
    expect((await queries.runsOf('ag1', 'd1')).map((r) => r.id)).toEqual(['ra', 'rc', 'rb']);
    expect((await queries.latestOf('d2'))?.id).toBe('rd');
    expect((await queries.latestOf('d1'))?.id).toBe('ra');
    expect(await queries.latestOf('d-none')).toBeNull();
  });

  it('results of several runs come run by run, in case order; none asked, none read', async () => {
    await rm.given(
      started('r1', 'd1'),
      started('r2', 'd1'),
      ran('r2', 1, 'second', true),
      ran('r1', 0, 'first', true),
      ran('r2', 0, 'first', false),
    );
    expect((await queries.resultsOf(['r2', 'r1'])).map((r) => `${r.runId}#${r.idx}`)).toEqual(['r1#0', 'r2#0', 'r2#1']);
    expect(await queries.resultsOf([])).toEqual([]);
  });
});
