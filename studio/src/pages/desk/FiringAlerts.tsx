import { useEffect } from 'react';
import { useStudio } from '../../api/context';
import { ErrorNote, Link, shortTime, useLoad } from '../../ui';
import './desk.css';

/** A rule in `alert`, as GET /v1/alerts lists it (docs/api/alerts.md). */
interface FiringAlert {
  alert_rule_id: string;
  name: string;
  project_id: string | null;
  metric: string;
  operator: string;
  threshold_value: number;
  window_duration: string;
  since: string;
  last_evaluated_at: string | null;
  current_value: number | null;
}

/** Rounds run on the server's interval: reading again as often is enough. */
const REFRESH_MS = 30_000;

/** What is firing now in the key's account (`/studio/alerts/firing`): the rules whose state is `alert`. */
export function FiringAlerts() {
  const { api } = useStudio();
  const { data, error, loading, reload } = useLoad(
    () => api.http.request<{ data: FiringAlert[] }>('GET', '/v1/alerts'),
    [api],
  );
  useEffect(() => {
    const timer = setInterval(reload, REFRESH_MS);
    return () => clearInterval(timer);
  }, [reload]);
  const alerts = data?.data ?? [];
  return (
    <section aria-labelledby="firing-title">
      <h1 id="firing-title">Firing now</h1>
      <p className="hint">
        Alert rules whose last evaluation crossed their threshold.{' '}
        <button type="button" onClick={reload} disabled={loading}>
          Refresh
        </button>
      </p>
      <ErrorNote error={error} />
      <table className="firing">
        <caption className="sr-only">Alert rules in alert</caption>
        <thead>
          <tr>
            <th scope="col">Rule</th>
            <th scope="col">State</th>
            <th scope="col">Agent</th>
            <th scope="col">Condition</th>
            <th scope="col">Value</th>
            <th scope="col">Since</th>
          </tr>
        </thead>
        <tbody>
          {alerts.map((a) => (
            <tr key={a.alert_rule_id} data-alert-rule={a.alert_rule_id}>
              <td>{a.name}</td>
              <td data-field="state">
                <strong className="firing-state">firing</strong>
              </td>
              <td>{a.project_id ? <Link to={`/agents/${a.project_id}`}>{a.project_id}</Link> : 'whole account'}</td>
              <td>
                {a.metric} {a.operator} {a.threshold_value} over {a.window_duration}
              </td>
              <td>{a.current_value ?? ''}</td>
              <td>{shortTime(a.since)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {!loading && alerts.length === 0 && !error && <p className="hint">Nothing is firing.</p>}
    </section>
  );
}
