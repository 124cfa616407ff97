import { useState, type FormEvent } from 'react';
import type { ParleyApi } from '../api/client';
import { useStudio } from '../api/context';
import { SecretOnce } from '../secret';
import { ErrorNote, Link, useAction } from '../ui';
import { Keys } from './Keys';
import './admin.css';

type Connector = Awaited<ReturnType<ParleyApi['createConnector']>>;
type NumberInput = Parameters<ParleyApi['provisionNumber']>[1];

/**
 * Operator: one account's keys, and its connectors and phone numbers. The API has no list of
 * connectors or numbers yet, so the page lists what it created in this visit.
 */
export function OperatorAccount({ accountId }: { accountId: string }) {
  return (
    <>
      <p className="crumbs">
        <Link to="/operator">Accounts</Link> / <code>{accountId}</code>
      </p>
      <Keys accountId={accountId} showDataAccess={false} />
      <Connectors accountId={accountId} />
      <PhoneNumbers />
    </>
  );
}

function Connectors({ accountId }: { accountId: string }) {
  const { api } = useStudio();
  const [agentId, setAgentId] = useState('');
  const [kind, setKind] = useState<'messaging' | 'sms'>('messaging');
  const [environment, setEnvironment] = useState('sandbox');
  const [hostDomain, setHostDomain] = useState('');
  const [created, setCreated] = useState<Connector[]>([]);
  const [secret, setSecret] = useState<{ label: string; value: string } | null>(null);
  const action = useAction();

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const connector = await action.run(() =>
      api.createConnector(accountId, {
        agentId: agentId.trim(),
        kind,
        environment,
        ...(kind === 'messaging' ? { hostDomain: hostDomain.trim() } : {}),
      }),
    );
    if (!connector) return;
    setCreated((now) => [connector, ...now]);
    const value = connector.connectorToken ?? connector.webhookSecret;
    if (value)
      setSecret({
        label: `${connector.connectorToken ? 'Connector token' : 'Webhook secret'} of ${connector.connectorId}`,
        value,
      });
  };

  return (
    <section aria-labelledby="connectors-title" className="panel">
      <h2 id="connectors-title">Connectors</h2>
      <form onSubmit={submit} className="row" aria-label="Create a connector">
        <label>
          Agent id{' '}
          <input value={agentId} onChange={(e) => setAgentId(e.target.value)} required placeholder="PROJECT-…" />
        </label>
        <label>
          Kind
          <select value={kind} onChange={(e) => setKind(e.target.value as 'messaging' | 'sms')}>
            <option>messaging</option>
            <option>sms</option>
          </select>
        </label>
        <label>
          Environment
          <select value={environment} onChange={(e) => setEnvironment(e.target.value)}>
            {['dev', 'sandbox', 'pre-release', 'live'].map((env) => (
              <option key={env}>{env}</option>
            ))}
          </select>
        </label>
        {kind === 'messaging' && (
          <label>
            Host domain{' '}
            <input
              value={hostDomain}
              onChange={(e) => setHostDomain(e.target.value)}
              required
              placeholder="shop.example.com"
            />
          </label>
        )}
        <button type="submit" disabled={action.busy}>
          Create connector
        </button>
      </form>
      <ErrorNote error={action.error} />
      {secret && <SecretOnce label={secret.label} secret={secret.value} onDone={() => setSecret(null)} />}
      {created.length > 0 && (
        <table>
          <caption>Created in this visit</caption>
          <thead>
            <tr>
              <th scope="col">Connector</th>
              <th scope="col">Kind</th>
              <th scope="col">Agent</th>
              <th scope="col">Environment</th>
            </tr>
          </thead>
          <tbody>
            {created.map((c) => (
              <tr key={c.connectorId}>
                <td>
                  <code>{c.connectorId}</code>
                </td>
                <td>{c.kind}</td>
                <td>
                  <code>{c.agentId}</code>
                </td>
                <td>{c.environment}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

function PhoneNumbers() {
  const { api } = useStudio();
  const [agentId, setAgentId] = useState('');
  const [input, setInput] = useState<NumberInput>({ number: '+1555', environment: 'sandbox', pool: 'main' });
  const [created, setCreated] = useState<Array<NumberInput & { agentId: string }>>([]);
  const action = useAction();

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const number = await action.run(() =>
      api.provisionNumber(agentId.trim(), { ...input, number: input.number.trim() }),
    );
    if (number) setCreated((now) => [{ ...input, agentId: number.agentId }, ...now]);
  };

  return (
    <section aria-labelledby="numbers-title" className="panel">
      <h2 id="numbers-title">Phone numbers</h2>
      <p className="hint">
        A main number answers calls with the environment&apos;s deployment; a DNI pool number is reserved per
        conversation through <code>POST /v1/conversations/dni-reservation</code>.
      </p>
      <form onSubmit={submit} className="row" aria-label="Provision a phone number">
        <label>
          Agent id{' '}
          <input value={agentId} onChange={(e) => setAgentId(e.target.value)} required placeholder="PROJECT-…" />
        </label>
        <label>
          Number (E.164){' '}
          <input
            value={input.number}
            onChange={(e) => setInput({ ...input, number: e.target.value })}
            required
            pattern="\+[1-9][0-9]{6,14}"
          />
        </label>
        <label>
          Environment
          <select
            value={input.environment}
            onChange={(e) => setInput({ ...input, environment: e.target.value as NumberInput['environment'] })}
          >
            {['dev', 'sandbox', 'live'].map((env) => (
              <option key={env}>{env}</option>
            ))}
          </select>
        </label>
        <label>
          Pool
          <select
            value={input.pool}
            onChange={(e) => setInput({ ...input, pool: e.target.value as NumberInput['pool'] })}
          >
            <option value="main">main number</option>
            <option value="dni">DNI pool</option>
          </select>
        </label>
        <button type="submit" disabled={action.busy}>
          Provision number
        </button>
      </form>
      <ErrorNote error={action.error} />
      {created.length > 0 && (
        <table>
          <caption>Provisioned in this visit</caption>
          <thead>
            <tr>
              <th scope="col">Number</th>
              <th scope="col">Agent</th>
              <th scope="col">Environment</th>
              <th scope="col">Pool</th>
            </tr>
          </thead>
          <tbody>
            {created.map((n) => (
              <tr key={`${n.number}-${n.environment}`}>
                <td>{n.number}</td>
                <td>
                  <code>{n.agentId}</code>
                </td>
                <td>{n.environment}</td>
                <td>{n.pool}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
