import { useState, type FormEvent } from 'react';
import { useStudio } from '../api/context';
import type { ApiKey, Permission } from '../api/types';
import { SecretOnce } from '../secret';
import { ErrorNote, expiryTime, useAction, useLoad } from '../ui';
import { DataAccessPanel } from './DataAccess';
import './admin.css';

/** Every permission a key can hold (contract §4), in the order the form shows them. */
const PERMISSIONS: Permission[] = [
  'agents',
  'conversations',
  'keys',
  'alerts',
  'handoff',
  'desk',
  'external_events',
  'outbound_calling',
  'sms',
  'chat',
  'dni',
];

const inDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

/**
 * An account's API keys: create (the secret shown once), list, rename, delete. In key mode the
 * account is the key's own (the key needs `keys`); in operator mode the one being looked at.
 */
export function Keys({ accountId, showDataAccess = true }: { accountId: string; showDataAccess?: boolean }) {
  const { api } = useStudio();
  const keys = useLoad(() => api.keys(accountId), [api, accountId]);
  const action = useAction();
  const [created, setCreated] = useState<ApiKey | null>(null);

  const remove = async (key: ApiKey) => {
    if (!window.confirm(`Delete the key ${key.name}? It stops working at once.`)) return;
    if (await action.run(async () => (await api.deleteKey(accountId, key.id), true))) keys.reload();
  };

  return (
    <section aria-labelledby="keys-title">
      <h1 id="keys-title">API keys</h1>
      <CreateKeyForm
        accountId={accountId}
        onCreated={(key) => {
          setCreated(key);
          keys.reload();
        }}
      />
      {created && <SecretOnce label={`Key ${created.name}`} secret={created.key} onDone={() => setCreated(null)} />}
      <ErrorNote error={action.error ?? keys.error} />
      <table>
        <caption className="sr-only">API keys</caption>
        <thead>
          <tr>
            <th scope="col">Name</th>
            <th scope="col">Key</th>
            <th scope="col">Agents</th>
            <th scope="col">Permissions</th>
            <th scope="col">Expires</th>
            <th scope="col">Actions</th>
          </tr>
        </thead>
        <tbody>
          {keys.data?.apiKeys.map((key) => (
            <KeyRow key={key.id} accountId={accountId} apiKey={key} onChanged={keys.reload} onDelete={remove} />
          ))}
        </tbody>
      </table>
      {keys.data && keys.data.apiKeys.length === 0 && (
        <p>No keys yet: create one above for each app or person that calls the API.</p>
      )}
      {showDataAccess && <DataAccessPanel accountId={accountId} />}
    </section>
  );
}

function CreateKeyForm({ accountId, onCreated }: { accountId: string; onCreated: (key: ApiKey) => void }) {
  const { api } = useStudio();
  const [name, setName] = useState('');
  const [scope, setScope] = useState<'all' | 'some'>('all');
  const [agentIds, setAgentIds] = useState('');
  const [permissions, setPermissions] = useState<Permission[]>(['conversations']);
  const [expires, setExpires] = useState(inDays(90));
  const action = useAction();

  const toggle = (permission: Permission, on: boolean) =>
    setPermissions((now) => (on ? [...now, permission] : now.filter((p) => p !== permission)));
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const agents =
      scope === 'all'
        ? ('all' as const)
        : agentIds
            .split(/[\s,]+/)
            .map((id) => id.trim())
            .filter(Boolean);
    const key = await action.run(() =>
      api.createKey(accountId, {
        name: name.trim(),
        agents,
        permissions,
        // the start of the chosen day (UTC), as a date given to the API means: shown the same either way
        expiresAt: new Date(`${expires}T00:00:00.000Z`).toISOString(),
      }),
    );
    if (key) {
      setName('');
      onCreated(key);
    }
  };

  return (
    <form onSubmit={submit} aria-label="Create a key" className="panel">
      <div className="row">
        <label>
          Name <input value={name} onChange={(e) => setName(e.target.value)} required maxLength={200} />
        </label>
        <label>
          Expires on (UTC){' '}
          <input type="date" value={expires} min={inDays(1)} onChange={(e) => setExpires(e.target.value)} />
        </label>
        <label>
          Agents
          <select value={scope} onChange={(e) => setScope(e.target.value as 'all' | 'some')}>
            <option value="all">all agents</option>
            <option value="some">only these</option>
          </select>
        </label>
        {scope === 'some' && (
          <label className="grow">
            Agent ids{' '}
            <input
              value={agentIds}
              onChange={(e) => setAgentIds(e.target.value)}
              placeholder="PROJECT-…, PROJECT-…"
              required
            />
          </label>
        )}
      </div>
      <fieldset className="choices">
        <legend>Permissions</legend>
        {PERMISSIONS.map((permission) => (
          <label key={permission}>
            <input
              type="checkbox"
              checked={permissions.includes(permission)}
              onChange={(e) => toggle(permission, e.target.checked)}
            />
            {permission}
          </label>
        ))}
      </fieldset>
      <button type="submit" disabled={action.busy || permissions.length === 0}>
        Create key
      </button>
      <ErrorNote error={action.error} />
    </form>
  );
}

function KeyRow({
  accountId,
  apiKey,
  onChanged,
  onDelete,
}: {
  accountId: string;
  apiKey: ApiKey;
  onChanged: () => void;
  onDelete: (key: ApiKey) => void;
}) {
  const { api } = useStudio();
  const [editing, setEditing] = useState(false);
  const [name, setName] = useState(apiKey.name);
  const action = useAction();
  const save = async (event: FormEvent) => {
    event.preventDefault();
    if (await action.run(async () => (await api.renameKey(accountId, apiKey.id, name.trim()), true))) {
      setEditing(false);
      onChanged();
    }
  };
  return (
    <tr>
      <td>
        {editing ? (
          <form onSubmit={save} className="row" aria-label={`Rename ${apiKey.name}`}>
            <label>
              <span className="sr-only">New name for {apiKey.name}</span>
              <input value={name} onChange={(e) => setName(e.target.value)} required maxLength={200} autoFocus />
            </label>
            <button type="submit" disabled={action.busy}>
              Save
            </button>
            <button type="button" className="secondary" onClick={() => setEditing(false)}>
              Cancel
            </button>
          </form>
        ) : (
          apiKey.name
        )}
        <ErrorNote error={action.error} />
      </td>
      <td>
        <code>{apiKey.key}</code>
      </td>
      <td>{apiKey.agents === 'all' ? 'all' : apiKey.agents.join(', ')}</td>
      <td>{apiKey.permissions.join(', ')}</td>
      <td>{expiryTime(apiKey.expiresAt)}</td>
      <td className="actions">
        {!editing && (
          <button type="button" className="secondary" onClick={() => setEditing(true)}>
            Rename {apiKey.name}
          </button>
        )}
        <button type="button" className="danger" onClick={() => onDelete(apiKey)}>
          Delete {apiKey.name}
        </button>
      </td>
    </tr>
  );
}
