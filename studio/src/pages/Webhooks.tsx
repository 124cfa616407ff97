import { useState, type FormEvent } from 'react';
import type { ParleyApi } from '../api/client';
import { useStudio } from '../api/context';
import type { WebhookEndpoint } from '../api/types';
import { SecretOnce } from '../secret';
import { FormButtons } from '../components/FormRow';
import { ListTable } from '../components/ListTable';
import { ErrorNote, shortTime, useAction, useLoad } from '../ui';
import './admin.css';

type EventType = Parameters<ParleyApi['createWebhookEndpoint']>[0]['event_types'][number];
const EVENT_TYPES: EventType[] = [
  'alerts.triggered',
  'alerts.resolved',
  'conversation.started',
  'conversation.ended',
  'conversation.analysed',
  'handoff.created',
];

/** Webhook endpoints (contract §13): create, edit, delete, rotate the secret; each one's recent deliveries. */
export function Webhooks() {
  const { api } = useStudio();
  const endpoints = useLoad(() => api.webhookEndpoints(), [api]);
  const [editing, setEditing] = useState<WebhookEndpoint | null>(null);
  const [shown, setShown] = useState<string | null>(null);
  const [secret, setSecret] = useState<{ label: string; value: string } | null>(null);
  const action = useAction();

  const remove = async (endpoint: WebhookEndpoint) => {
    if (!window.confirm(`Delete the webhook endpoint ${endpoint.name || endpoint.url}?`)) return;
    if (await action.run(async () => (await api.deleteWebhookEndpoint(endpoint.id), true))) {
      if (shown === endpoint.id) setShown(null);
      endpoints.reload();
    }
  };
  const rotate = async (endpoint: WebhookEndpoint) => {
    if (!window.confirm(`Rotate the signing secret of ${endpoint.name || endpoint.url}? The old one stops at once.`))
      return;
    const rotated = await action.run(() => api.rotateWebhookSecret(endpoint.id));
    if (rotated)
      setSecret({ label: `New signing secret of ${endpoint.name || endpoint.url}`, value: rotated.signing_secret });
  };

  return (
    <section aria-labelledby="webhooks-title">
      <h1 id="webhooks-title">Webhook endpoints</h1>
      <EndpointForm
        key={editing?.id ?? 'new'}
        endpoint={editing}
        onSaved={(saved, created) => {
          setEditing(null);
          if (created)
            setSecret({ label: `Signing secret of ${saved.name || saved.url}`, value: saved.signing_secret });
          endpoints.reload();
        }}
        onCancel={() => setEditing(null)}
      />
      {secret && <SecretOnce label={secret.label} secret={secret.value} onDone={() => setSecret(null)} />}
      <ErrorNote error={action.error ?? endpoints.error} />
      <ListTable
        caption="Webhook endpoints"
        rows={endpoints.data?.data}
        rowKey={(endpoint) => endpoint.id}
        empty="No webhook endpoints yet: add a URL above to receive alerts as they fire."
        columns={[
          { header: 'Name', cell: (endpoint) => endpoint.name },
          { header: 'URL', cell: (endpoint) => <code>{endpoint.url}</code> },
          { header: 'Events', cell: (endpoint) => endpoint.event_types.join(', ') },
          { header: 'Enabled', cell: (endpoint) => (endpoint.enabled ? 'yes' : 'no') },
          {
            header: 'Actions',
            className: 'actions',
            cell: (endpoint) => (
              <>
                <button
                  type="button"
                  className="secondary"
                  aria-pressed={shown === endpoint.id}
                  onClick={() => setShown(shown === endpoint.id ? null : endpoint.id)}
                >
                  Deliveries of {endpoint.name || endpoint.id}
                </button>
                <button type="button" className="secondary" onClick={() => setEditing(endpoint)}>
                  Edit {endpoint.name || endpoint.id}
                </button>
                <button type="button" className="secondary" onClick={() => rotate(endpoint)}>
                  Rotate secret
                </button>
                <button type="button" className="danger" onClick={() => remove(endpoint)}>
                  Delete {endpoint.name || endpoint.id}
                </button>
              </>
            ),
          },
        ]}
      />
      {shown && <Deliveries key={shown} endpointId={shown} />}
    </section>
  );
}

function EndpointForm({
  endpoint,
  onSaved,
  onCancel,
}: {
  endpoint: WebhookEndpoint | null;
  onSaved: (endpoint: WebhookEndpoint, created: boolean) => void;
  onCancel: () => void;
}) {
  const { api } = useStudio();
  const [name, setName] = useState(endpoint?.name ?? '');
  const [url, setUrl] = useState(endpoint?.url ?? 'https://');
  const [events, setEvents] = useState<EventType[]>((endpoint?.event_types as EventType[]) ?? ['alerts.triggered']);
  const [timeout, setTimeoutMs] = useState(endpoint?.timeout_ms ?? 5000);
  const [enabled, setEnabled] = useState(endpoint?.enabled ?? true);
  const action = useAction();

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const body = { name: name.trim(), url: url.trim(), event_types: events, timeout_ms: timeout, enabled };
    const saved = await action.run(() =>
      endpoint ? api.editWebhookEndpoint(endpoint.id, body) : api.createWebhookEndpoint(body),
    );
    if (saved) onSaved(saved, !endpoint);
  };

  return (
    <form
      onSubmit={submit}
      className="panel"
      aria-label={endpoint ? `Edit ${endpoint.name || endpoint.id}` : 'Create a webhook endpoint'}
    >
      <h2>{endpoint ? `Edit ${endpoint.name || endpoint.id}` : 'New webhook endpoint'}</h2>
      <div className="row">
        <label>
          Name <input value={name} onChange={(e) => setName(e.target.value)} maxLength={200} />
        </label>
        <label className="grow">
          URL <input type="url" value={url} onChange={(e) => setUrl(e.target.value)} required />
        </label>
        <label>
          Timeout (ms)
          <input
            type="number"
            min={1000}
            max={30000}
            step={500}
            value={timeout}
            onChange={(e) => setTimeoutMs(Number(e.target.value))}
          />
        </label>
        <label>
          <input type="checkbox" checked={enabled} onChange={(e) => setEnabled(e.target.checked)} />
          Enabled
        </label>
      </div>
      <fieldset className="choices">
        <legend>Events</legend>
        {EVENT_TYPES.map((type) => (
          <label key={type}>
            <input
              type="checkbox"
              checked={events.includes(type)}
              onChange={(e) => setEvents((now) => (e.target.checked ? [...now, type] : now.filter((t) => t !== type)))}
            />
            {type}
          </label>
        ))}
      </fieldset>
      <div className="row">
        <FormButtons
          noun="endpoint"
          editing={!!endpoint}
          createVerb="Create"
          busy={action.busy}
          disabled={events.length === 0}
          onCancel={onCancel}
        />
      </div>
      <ErrorNote error={action.error} />
    </form>
  );
}

/** The endpoint's recent attempts, newest first as the API lists them, with when the next retry is due. */
function Deliveries({ endpointId }: { endpointId: string }) {
  const { api } = useStudio();
  const deliveries = useLoad(() => api.webhookDeliveries(endpointId), [api, endpointId]);
  return (
    <section aria-labelledby="deliveries-title" className="panel">
      <h2 id="deliveries-title">Recent deliveries</h2>
      <button type="button" className="secondary" onClick={deliveries.reload}>
        Refresh deliveries
      </button>
      <ErrorNote error={deliveries.error} />
      {deliveries.data && deliveries.data.data.length === 0 && (
        <p>No deliveries yet: they appear when an alert fires or you send a test.</p>
      )}
      {deliveries.data && deliveries.data.data.length > 0 && (
        <table>
          <caption className="sr-only">Recent deliveries</caption>
          <thead>
            <tr>
              <th scope="col">When</th>
              <th scope="col">Event</th>
              <th scope="col">Attempt</th>
              <th scope="col">Outcome</th>
              <th scope="col">HTTP</th>
              <th scope="col">Delivery</th>
              <th scope="col">Next retry</th>
              <th scope="col">Error</th>
            </tr>
          </thead>
          <tbody>
            {deliveries.data.data.map((d) => (
              <tr key={`${d.delivery_id}-${d.attempt}`}>
                <td>{shortTime(d.attempted_at)}</td>
                <td>
                  <code>{d.event_type}</code>
                </td>
                <td>{d.attempt}</td>
                <td>{d.outcome}</td>
                <td>{d.status_code ?? '—'}</td>
                <td>{d.delivery_status}</td>
                <td>{d.next_attempt_at ? shortTime(d.next_attempt_at) : '—'}</td>
                <td>{d.error ?? ''}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
