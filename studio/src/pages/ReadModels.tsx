import { useEffect } from 'react';
import { useStudio } from '../api/context';
import type { ReadModelsStatus, RebuildJob } from '../api/types';
import { ErrorNote, shortTime, useAction, useLoad } from '../ui';
import './admin.css';

/** How often the page asks again while a rebuild runs: its progress moves by the second. */
const POLL_MS = 500;

/**
 * Operator: every read model's state and lag, a rebuild button with its progress (the building
 * generation's position against the log, polled while it runs), and the dead letters.
 */
export function ReadModels() {
  const { api } = useStudio();
  const status = useLoad(() => api.readModels(), [api]);
  const letters = useLoad(() => api.deadLetters(), [api]);
  const action = useAction();
  const running = status.data ? rebuildUnderWay(status.data) : false;
  const { reload } = status;
  useEffect(() => {
    if (!running) return;
    const timer = setInterval(reload, POLL_MS);
    return () => clearInterval(timer);
  }, [running, reload]);

  const rebuild = async (name: string) => {
    if (!window.confirm(`Rebuild ${name} from the whole log? It keeps serving meanwhile.`)) return;
    if (await action.run(() => api.rebuild(name))) reload();
  };

  return (
    <section aria-labelledby="read-models-title">
      <h1 id="read-models-title">Read models</h1>
      <p className="hint">
        {status.data?.events ?? '…'} events in the log. Lag is the number of events a read model has not applied yet.
      </p>
      <ErrorNote error={action.error ?? status.error} />
      <table>
        <caption className="sr-only">Read models</caption>
        <thead>
          <tr>
            <th scope="col">Read model</th>
            <th scope="col">State</th>
            <th scope="col">Generation</th>
            <th scope="col">Lag (events)</th>
            <th scope="col">Dead letters</th>
            <th scope="col">Rebuild</th>
          </tr>
        </thead>
        <tbody>
          {status.data?.readModels.map((model) => {
            const job = status.data!.rebuilds.find((r) => r.name === model.name);
            return (
              <tr key={model.name}>
                <th scope="row">
                  {model.name} <span className="hint">v{model.version}</span>
                </th>
                <td>
                  {model.state}
                  {model.role === 'follower' && ' (follower)'}
                  {model.error && <span className="error"> {model.error}</span>}
                </td>
                <td>{model.generation ?? '—'}</td>
                <td>{model.lagEvents ?? '?'}</td>
                <td className={model.degraded ? 'error' : undefined}>{model.deadLetters ?? '?'}</td>
                <td>
                  <RebuildCell
                    name={model.name}
                    job={job}
                    status={status.data!}
                    busy={action.busy}
                    onRebuild={() => rebuild(model.name)}
                  />
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
      <section aria-labelledby="dead-letters-title" className="panel">
        <h2 id="dead-letters-title">Dead letters</h2>
        <p className="hint">
          Events a read model or process manager could not handle, set aside so it moves on. Retry them with{' '}
          <code>npm run projections -- retry &lt;name&gt; --all</code> once the cause is fixed.
        </p>
        <button type="button" className="secondary" onClick={letters.reload}>
          Refresh dead letters
        </button>
        <ErrorNote error={letters.error} />
        {letters.data && letters.data.deadLetters.length === 0 && <p>No open dead letters.</p>}
        {letters.data && letters.data.deadLetters.length > 0 && (
          <table>
            <caption className="sr-only">Dead letters</caption>
            <thead>
              <tr>
                <th scope="col">Consumer</th>
                <th scope="col">Event</th>
                <th scope="col">Stream</th>
                <th scope="col">Attempts</th>
                <th scope="col">Since</th>
                <th scope="col">Error</th>
              </tr>
            </thead>
            <tbody>
              {letters.data.deadLetters.map((l) => (
                <tr key={`${l.kind}:${l.name}:${l.position}`}>
                  <td>
                    {l.kind}: {l.name}
                  </td>
                  <td>
                    <code>{l.eventType}</code> at {l.position}
                  </td>
                  <td>
                    <code>{l.streamId}</code>
                  </td>
                  <td>{l.attempts}</td>
                  <td>{shortTime(l.firstFailedAt)}</td>
                  <td>{l.error}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>
    </section>
  );
}

/** How long after a rebuild ends the page keeps asking, waiting for the runner to serve the new generation. */
const SWITCH_WAIT_MS = 15_000;

/**
 * A rebuild runs, or has ended and the runner has not switched to its generation yet (it follows
 * within a second): the page keeps polling until the table shows what the rebuild made.
 */
function rebuildUnderWay(status: ReadModelsStatus): boolean {
  return status.rebuilds.some(
    (job) =>
      job.state === 'running' ||
      (job.state === 'done' &&
        job.report !== null &&
        status.readModels.find((r) => r.name === job.name)?.generation !== job.report.generation &&
        Date.now() - Date.parse(job.finishedAt ?? '') < SWITCH_WAIT_MS),
  );
}

/** The rebuild button, or the running rebuild's progress, or how the last one ended. */
function RebuildCell({
  name,
  job,
  status,
  busy,
  onRebuild,
}: {
  name: string;
  job: RebuildJob | undefined;
  status: ReadModelsStatus;
  busy: boolean;
  onRebuild: () => void;
}) {
  if (job?.state === 'running') {
    const building = status.generations
      .filter((g) => g.name === name && g.status === 'building')
      .sort((a, b) => b.generation - a.generation)[0];
    const total = status.events ?? 0;
    const done = building && building.lagEvents !== null ? Math.max(0, total - building.lagEvents) : 0;
    return (
      <label>
        <span>Rebuilding {name}</span>
        <progress className="progress" max={Math.max(total, 1)} value={done}>
          {done} of {total} events
        </progress>
        <span>
          {done} / {total}
        </span>
      </label>
    );
  }
  return (
    <div className="actions">
      <button type="button" className="secondary" disabled={busy} onClick={onRebuild}>
        Rebuild {name}
      </button>
      <span role="status">
        {job?.state === 'done' &&
          job.report &&
          `rebuilt ${shortTime(job.finishedAt ?? '')}: generation ${job.report.generation}, ${job.report.events} events in ${(job.report.ms / 1000).toFixed(1)} s`}
        {job?.state === 'failed' && <span className="error">rebuild failed: {job.error}</span>}
      </span>
    </div>
  );
}
