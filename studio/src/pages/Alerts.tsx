import { useState, type FormEvent } from 'react';
import { useStudio } from '../api/context';
import type { AlertRule } from '../api/types';
import { FormButtons } from '../components/FormRow';
import { ListTable } from '../components/ListTable';
import { ErrorNote, shortTime, useAction, useLoad } from '../ui';
import './admin.css';

type RuleInput = Pick<AlertRule, 'name' | 'metric' | 'operator' | 'threshold_value' | 'window_duration' | 'project_id'>;

const METRICS: AlertRule['metric'][] = [
  'turn_latency_p50',
  'turn_latency_p95',
  'api_errors',
  'function_errors',
  'call_crashes',
  'call_volume',
];
const OPERATORS: AlertRule['operator'][] = ['>', '>=', '<', '<='];
const WINDOWS: AlertRule['window_duration'][] = ['5m', '10m', '60m'];
const BLANK: RuleInput = {
  name: '',
  metric: 'turn_latency_p95',
  operator: '>',
  threshold_value: 2000,
  window_duration: '5m',
  project_id: null,
};

/** Alert rules (contract §12): create, edit, enable or disable; and what is firing now. */
export function Alerts() {
  const { api, session } = useStudio();
  const rules = useLoad(() => api.alertRules(), [api]);
  const firing = useLoad(() => api.firing(), [api]);
  const agents = useLoad(() => api.agents(session.accountId!), [api, session.accountId]);
  const [editing, setEditing] = useState<AlertRule | null>(null);
  const action = useAction();
  const agentName = (id: string | null) =>
    id === null ? 'whole account' : (agents.data?.find((a) => a.agentId === id)?.agentName ?? id);

  const reload = () => {
    rules.reload();
    firing.reload();
  };
  const setEnabled = async (rule: AlertRule, enabled: boolean) => {
    if (await action.run(() => api.editAlertRule(rule.id, { enabled }))) reload();
  };
  const remove = async (rule: AlertRule) => {
    if (!window.confirm(`Delete the alert rule ${rule.name}?`)) return;
    if (await action.run(async () => (await api.deleteAlertRule(rule.id), true))) reload();
  };

  return (
    <section aria-labelledby="alerts-title">
      <h1 id="alerts-title">Alerts</h1>
      <section aria-labelledby="firing-title" className="panel">
        <h2 id="firing-title">Firing now</h2>
        <ErrorNote error={firing.error} />
        {firing.data && firing.data.data.length === 0 && <p>Nothing is firing.</p>}
        {firing.data && firing.data.data.length > 0 && (
          <ul aria-label="Firing alerts">
            {firing.data.data.map((a) => (
              <li key={a.alert_rule_id} className="state-alert">
                {a.name}: {a.metric} {a.current_value ?? '?'} {a.operator} {a.threshold_value} over {a.window_duration}{' '}
                ({agentName(a.project_id)}), since {shortTime(a.since ?? '')}
              </li>
            ))}
          </ul>
        )}
        <button type="button" className="secondary" onClick={reload}>
          Refresh
        </button>
      </section>
      <RuleForm
        key={editing?.id ?? 'new'}
        rule={editing}
        agents={agents.data ?? []}
        onDone={() => {
          setEditing(null);
          reload();
        }}
        onCancel={() => setEditing(null)}
      />
      <ErrorNote error={action.error ?? rules.error} />
      <ListTable
        caption="Alert rules"
        rows={rules.data?.data}
        rowKey={(rule) => rule.id}
        empty="No alert rules yet: add one above to be told when a figure crosses a threshold."
        columns={[
          { header: 'Name', cell: (rule) => rule.name },
          {
            header: 'Condition',
            cell: (rule) => (
              <>
                <code>
                  {rule.metric} {rule.operator} {rule.threshold_value}
                </code>{' '}
                over {rule.window_duration}
              </>
            ),
          },
          { header: 'Agent', cell: (rule) => agentName(rule.project_id) },
          {
            header: 'State',
            className: (rule) => `state-${rule.current_state}`,
            cell: (rule) => (
              <>
                {rule.current_state}
                {rule.current_value !== null && ` (${rule.current_value})`}
              </>
            ),
          },
          { header: 'Last evaluated', cell: (rule) => shortTime(rule.last_evaluated_at ?? '') },
          {
            header: 'Enabled',
            cell: (rule) => (
              <label>
                <input
                  type="checkbox"
                  checked={rule.enabled}
                  disabled={action.busy}
                  onChange={(e) => setEnabled(rule, e.target.checked)}
                />
                <span className="sr-only">Enable {rule.name}</span>
              </label>
            ),
          },
          {
            header: 'Actions',
            className: 'actions',
            cell: (rule) => (
              <>
                <button type="button" className="secondary" onClick={() => setEditing(rule)}>
                  Edit {rule.name}
                </button>
                <button type="button" className="danger" onClick={() => remove(rule)}>
                  Delete {rule.name}
                </button>
              </>
            ),
          },
        ]}
      />
    </section>
  );
}

function RuleForm({
  rule,
  agents,
  onDone,
  onCancel,
}: {
  rule: AlertRule | null;
  agents: Array<{ agentId: string; agentName: string }>;
  onDone: () => void;
  onCancel: () => void;
}) {
  const { api } = useStudio();
  const [input, setInput] = useState<RuleInput>(rule ?? BLANK);
  const [enabled, setEnabled] = useState(true);
  const action = useAction();
  const set = <K extends keyof RuleInput>(name: K, value: RuleInput[K]) =>
    setInput((now) => ({ ...now, [name]: value }));

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const body = { ...input, name: input.name.trim() };
    const done = await action.run(() =>
      rule ? api.editAlertRule(rule.id, body) : api.createAlertRule({ ...body, enabled }),
    );
    if (done) {
      setInput(BLANK);
      setEnabled(true);
      onDone();
    }
  };

  return (
    <form onSubmit={submit} className="panel" aria-label={rule ? `Edit ${rule.name}` : 'Create an alert rule'}>
      <h2>{rule ? `Edit ${rule.name}` : 'New alert rule'}</h2>
      <div className="row">
        <label>
          Name <input value={input.name} onChange={(e) => set('name', e.target.value)} required maxLength={200} />
        </label>
        <label>
          Agent
          <select value={input.project_id ?? ''} onChange={(e) => set('project_id', e.target.value || null)}>
            <option value="">whole account</option>
            {agents.map((a) => (
              <option key={a.agentId} value={a.agentId}>
                {a.agentName}
              </option>
            ))}
          </select>
        </label>
        <label>
          Metric
          <select value={input.metric} onChange={(e) => set('metric', e.target.value as RuleInput['metric'])}>
            {METRICS.map((m) => (
              <option key={m}>{m}</option>
            ))}
          </select>
        </label>
        <label>
          Operator
          <select value={input.operator} onChange={(e) => set('operator', e.target.value as RuleInput['operator'])}>
            {OPERATORS.map((o) => (
              <option key={o}>{o}</option>
            ))}
          </select>
        </label>
        <label>
          Threshold
          <input
            type="number"
            step="any"
            value={input.threshold_value}
            onChange={(e) => set('threshold_value', Number(e.target.value))}
            required
          />
        </label>
        <label>
          Window
          <select
            value={input.window_duration}
            onChange={(e) => set('window_duration', e.target.value as RuleInput['window_duration'])}
          >
            {WINDOWS.map((w) => (
              <option key={w}>{w}</option>
            ))}
          </select>
        </label>
        {!rule && (
          <label>
            <input type="checkbox" checked={enabled} onChange={(e) => setEnabled(e.target.checked)} />
            Enabled
          </label>
        )}
        <FormButtons noun="rule" editing={!!rule} createVerb="Create" busy={action.busy} onCancel={onCancel} />
      </div>
      <ErrorNote error={action.error} />
    </form>
  );
}
