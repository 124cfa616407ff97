import { useState, type FormEvent } from 'react';
import { useStudio } from '../api/context';
import type { ParleyApi } from '../api/client';
import type { Permission } from '../api/types';
import { ErrorNote, Link, shortTime, useAction, useLoad } from '../ui';

const KEY_PERMISSIONS: Permission[] = ['agents', 'conversations', 'keys', 'alerts', 'handoff', 'desk'];
type Region = Parameters<ParleyApi['createAccount']>[1];
const REGIONS: Region[] = ['us', 'uk', 'eu', 'studio'];

/** Operator mode: accounts, and a key issued for one (shown once) that can be used to sign in. */
export function Operator() {
  const { api, signIn } = useStudio();
  const accounts = useLoad(() => api.accounts(), [api]);
  const [name, setName] = useState('');
  const [region, setRegion] = useState<Region>('us');
  const create = useAction();
  const issue = useAction();
  const [issued, setIssued] = useState<{ accountId: string; key: string; permissions: string[] } | null>(null);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (await create.run(() => api.createAccount(name.trim(), region))) {
      setName('');
      accounts.reload();
    }
  };
  const issueKey = async (accountId: string) => {
    const expiresAt = new Date(Date.now() + 30 * 86_400_000).toISOString();
    const created = await issue.run(() =>
      api.issueKey(accountId, { name: 'studio', agents: 'all', permissions: KEY_PERMISSIONS, expiresAt }),
    );
    if (created) setIssued({ accountId, key: created.key, permissions: created.permissions });
  };

  return (
    <section aria-labelledby="operator-title">
      <h1 id="operator-title">Accounts</h1>
      <form onSubmit={submit} className="row" aria-label="Create an account">
        <label>
          Name <input value={name} onChange={(e) => setName(e.target.value)} required maxLength={200} />
        </label>
        <label>
          Region
          <select value={region} onChange={(e) => setRegion(e.target.value as Region)}>
            {REGIONS.map((r) => (
              <option key={r}>{r}</option>
            ))}
          </select>
        </label>
        <button type="submit" disabled={create.busy}>
          Create account
        </button>
      </form>
      <ErrorNote error={create.error ?? accounts.error ?? issue.error} />
      {issued && (
        <div className="callout" role="status">
          <p>
            Key for {issued.accountId} (shown once): <code data-testid="issued-key">{issued.key}</code>
          </p>
          <button
            type="button"
            onClick={() =>
              signIn({
                mode: 'key',
                secret: issued.key,
                accountId: issued.accountId,
                permissions: issued.permissions,
                label: 'studio',
              })
            }
          >
            Sign in with this key
          </button>
        </div>
      )}
      <table>
        <caption className="sr-only">Accounts</caption>
        <thead>
          <tr>
            <th scope="col">Account</th>
            <th scope="col">Name</th>
            <th scope="col">Region</th>
            <th scope="col">Created</th>
            <th scope="col">Actions</th>
          </tr>
        </thead>
        <tbody>
          {accounts.data?.accounts.map((a) => (
            <tr key={a.accountId}>
              <td>
                <code>{a.accountId}</code>
              </td>
              <td>{a.name}</td>
              <td>{a.region}</td>
              <td>{shortTime(a.createdAt)}</td>
              <td className="actions">
                <Link to={`/operator/accounts/${encodeURIComponent(a.accountId)}`}>Manage {a.name}</Link>
                <button type="button" onClick={() => issueKey(a.accountId)} disabled={issue.busy}>
                  Issue a Studio key for {a.name}
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
