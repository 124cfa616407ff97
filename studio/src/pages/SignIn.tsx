import { useState, type FormEvent } from 'react';
import { ParleyApi } from '../api/client';
import type { Hosts } from '../api/http';
import type { Session } from '../session';
import { ErrorNote, useAction } from '../ui';

/** Sign in with an API key (its account comes from GET /v1/api-keys/self) or the operator token. */
export function SignIn({ hosts, onSignIn }: { hosts: Hosts; onSignIn: (session: Session) => void }) {
  const [mode, setMode] = useState<'key' | 'operator'>('key');
  const [secret, setSecret] = useState('');
  const action = useAction();

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const value = secret.trim();
    if (!value) return;
    await action.run(async () => {
      const api = new ParleyApi({ mode, secret: value }, hosts);
      if (mode === 'key') {
        const self = await api.self();
        onSignIn({
          mode,
          secret: value,
          accountId: self.accountId ?? null,
          permissions: self.permissions,
          label: self.name,
        });
      } else {
        await api.accounts();
        onSignIn({ mode, secret: value, accountId: null, permissions: [], label: 'operator' });
      }
    });
  };

  return (
    <main className="sign-in">
      <h1>Parley Studio</h1>
      <form onSubmit={submit} aria-label="Sign in">
        <fieldset>
          <legend>Sign in with</legend>
          <label>
            <input type="radio" name="mode" checked={mode === 'key'} onChange={() => setMode('key')} /> an API key
          </label>
          <label>
            <input type="radio" name="mode" checked={mode === 'operator'} onChange={() => setMode('operator')} /> the
            operator token
          </label>
        </fieldset>
        <label htmlFor="secret">{mode === 'key' ? 'API key' : 'Operator token'}</label>
        <input
          id="secret"
          type="password"
          autoComplete="off"
          value={secret}
          onChange={(e) => setSecret(e.target.value)}
          required
        />
        <p className="hint">Kept in this tab&apos;s session storage only; closing the tab signs you out.</p>
        <button type="submit" disabled={action.busy}>
          Sign in
        </button>
        <ErrorNote error={action.error} />
      </form>
    </main>
  );
}
