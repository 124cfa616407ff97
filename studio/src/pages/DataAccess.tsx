import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useStudio } from '../api/context';
import { ErrorNote, useAction, useLoad } from '../ui';

// the four the platform logs itself (src/accounts/permissions.ts); any other name is the agent's own
const BUILT_IN_METRICS = ['CALL_IN_PROGRESS', 'CALL_COMPLETED', 'HANDOFF_REASON', 'HANDOFF_TO'];

/** Data access per agent (contract §4): which response metrics and whether transcripts the Conversations API shows. */
export function DataAccessPanel({ accountId }: { accountId: string }) {
  const { api } = useStudio();
  const agents = useLoad(() => api.agents(accountId), [api, accountId]);
  // `?agent=` (the dashboard's link when transcripts are hidden) opens on that agent, in view
  const [agentId, setAgentId] = useState(() => new URLSearchParams(window.location.search).get('agent') ?? '');
  const panel = useRef<HTMLElement | null>(null);
  useEffect(() => {
    if (!agents.data?.length) return;
    if (!agents.data.some((a) => a.agentId === agentId)) setAgentId(agents.data[0].agentId);
    else if (new URLSearchParams(window.location.search).get('agent') === agentId) panel.current?.scrollIntoView();
  }, [agents.data, agentId]);

  return (
    <section aria-labelledby="data-access-title" className="panel" ref={panel}>
      <h2 id="data-access-title">Data access per agent</h2>
      <ErrorNote error={agents.error} />
      {agents.data && agents.data.length === 0 && (
        <p>No agents yet: create one on the Agents page, then choose what this account may read of it.</p>
      )}
      {agents.data && agents.data.length > 0 && (
        <label>
          Agent
          <select value={agentId} onChange={(e) => setAgentId(e.target.value)}>
            {agents.data.map((a) => (
              <option key={a.agentId} value={a.agentId}>
                {a.agentName}
              </option>
            ))}
          </select>
        </label>
      )}
      {agentId && <DataAccessForm key={agentId} accountId={accountId} agentId={agentId} />}
    </section>
  );
}

function DataAccessForm({ accountId, agentId }: { accountId: string; agentId: string }) {
  const { api } = useStudio();
  const current = useLoad(() => api.dataAccess(accountId, agentId), [api, accountId, agentId]);
  const [metrics, setMetrics] = useState<string[]>([]);
  const [custom, setCustom] = useState('');
  const [transcripts, setTranscripts] = useState(false);
  const [saved, setSaved] = useState(false);
  const action = useAction();
  useEffect(() => {
    if (!current.data) return;
    setMetrics(current.data.response_metrics.filter((m) => BUILT_IN_METRICS.includes(m)));
    setCustom(current.data.response_metrics.filter((m) => !BUILT_IN_METRICS.includes(m)).join(', '));
    setTranscripts(current.data.show_transcripts);
  }, [current.data]);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setSaved(false);
    const customNames = custom
      .split(/[\s,]+/)
      .map((m) => m.trim())
      .filter(Boolean);
    const done = await action.run(() =>
      api.setDataAccess(accountId, agentId, {
        response_metrics: [...metrics, ...customNames],
        show_transcripts: transcripts,
      }),
    );
    if (done) setSaved(true);
  };

  return (
    <form onSubmit={submit} aria-label="Data access">
      <ErrorNote error={current.error ?? action.error} />
      <fieldset className="choices">
        <legend>Response metrics</legend>
        {BUILT_IN_METRICS.map((m) => (
          <label key={m}>
            <input
              type="checkbox"
              checked={metrics.includes(m)}
              onChange={(e) => setMetrics((now) => (e.target.checked ? [...now, m] : now.filter((x) => x !== m)))}
            />
            {m}
          </label>
        ))}
      </fieldset>
      <div className="row">
        <label className="grow">
          Custom metrics <input value={custom} onChange={(e) => setCustom(e.target.value)} placeholder="name, name" />
        </label>
        <label>
          <input type="checkbox" checked={transcripts} onChange={(e) => setTranscripts(e.target.checked)} />
          Show transcripts
        </label>
        <button type="submit" disabled={action.busy || !current.data}>
          Save data access
        </button>
        <span aria-live="polite">{saved && 'Saved.'}</span>
      </div>
    </form>
  );
}
