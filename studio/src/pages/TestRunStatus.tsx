import { useEffect } from 'react';
import { useStudio } from '../api/context';
import type { TestRun } from '../api/types';
import { ErrorNote, useLoad } from '../ui';

const POLL_MS = 2000;

/** A deployment's latest test run: its status and summary, with each case's result expandable. */
export function TestRunStatus({ agentId, deploymentId }: { agentId: string; deploymentId: string }) {
  const { api } = useStudio();
  const runs = useLoad(() => api.testRuns(agentId, deploymentId), [api, agentId, deploymentId]);
  const latest: TestRun | undefined = runs.data?.testRuns[0];
  const running = latest?.status === 'running';
  // a run is asynchronous: ask again while it is under way, and stop once it has finished
  useEffect(() => {
    if (!running) return;
    const timer = setTimeout(runs.reload, POLL_MS);
    return () => clearTimeout(timer);
  }, [running, runs.reload, runs.data]);

  if (runs.error) return <ErrorNote error={runs.error} />;
  if (!latest) return null;
  // a run of no tests proves nothing: it is not shown as a green pass
  if (latest.status !== 'running' && latest.results.length === 0 && latest.summary.passed + latest.summary.failed === 0)
    return (
      <p className="test-run" data-test-run="none">
        Tests: <span className="badge">no tests</span> — add one on a branch&apos;s Tests tab to check each promotion.
      </p>
    );
  return (
    <details className="test-run" data-test-run={latest.status}>
      <summary>
        Tests: <span className={`badge ${latest.status}`}>{latest.status}</span> {latest.summary.passed} passed,{' '}
        {latest.summary.failed} failed
      </summary>
      <ul>
        {latest.results.map((r) => (
          <li key={r.testId} data-result={r.passed ? 'passed' : 'failed'}>
            {r.passed ? '✓' : '✗'} {r.name}
            {r.turns
              .flatMap((t) => t.failures)
              .map((f, i) => (
                <div key={i} className="error">
                  {f}
                </div>
              ))}
          </li>
        ))}
      </ul>
    </details>
  );
}
