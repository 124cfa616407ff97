import { useState, type FormEvent } from 'react';
import type { ParleyApi } from '../api/client';
import { useStudio } from '../api/context';
import { ListTable } from '../components/ListTable';
import { SecretOnce } from '../secret';
import { ErrorNote, Link, shortTime, useAction, useLoad } from '../ui';
import { Keys } from './Keys';
import './admin.css';

type Connector = Awaited<ReturnType<ParleyApi['connectors']>>['connectors'][number];
type PhoneNumber = Awaited<ReturnType<ParleyApi['phoneNumbers']>>['phoneNumbers'][number];
type NumberInput = Parameters<ParleyApi['provisionNumber']>[1];

/**
 * Operator: one account's keys, its connectors and its agents' phone numbers, as the operator API
 * lists them (a connector's token or secret is shown once, when it is created, never in the list).
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
  const connectors = useLoad(() => api.connectors(accountId), [api, accountId]);
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
    connectors.reload();
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
      <ErrorNote error={connectors.error} />
      <ListTable<Connector>
        caption="Connectors of this account"
        rows={connectors.data?.connectors}
        rowKey={(c) => c.connectorId}
        empty="No connectors yet."
        columns={[
          { header: 'Connector', cell: (c) => <code>{c.connectorId}</code> },
          { header: 'Kind', cell: (c) => c.kind },
          { header: 'Agent', cell: (c) => <code>{c.agentId}</code> },
          { header: 'Environment', cell: (c) => c.environment },
          { header: 'Host domain', cell: (c) => c.hostDomain ?? '' },
          { header: 'Created', cell: (c) => shortTime(c.createdAt) },
        ]}
      />
    </section>
  );
}

function PhoneNumbers() {
  const { api } = useStudio();
  const [agentId, setAgentId] = useState('');
  const [input, setInput] = useState<NumberInput>({ number: '+1555', environment: 'sandbox', pool: 'main' });
  // the operator API lists numbers per agent: the page shows those of the agent last looked up or
  // provisioned for, read again each time (`read` counts them), so a reservation's state is current
  const [shown, setShown] = useState<{ agentId: string; read: number } | null>(null);
  const [lookup, setLookup] = useState('');
  const showNumbersOf = (shownAgentId: string) =>
    setShown((now) => ({ agentId: shownAgentId, read: (now?.read ?? 0) + 1 }));
  const action = useAction();

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const number = await action.run(() =>
      api.provisionNumber(agentId.trim(), { ...input, number: input.number.trim() }),
    );
    if (number) {
      setLookup(number.agentId);
      showNumbersOf(number.agentId);
    }
  };
  const show = (event: FormEvent) => {
    event.preventDefault();
    showNumbersOf(lookup.trim());
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
      <form onSubmit={show} className="row" aria-label="Show an agent's phone numbers">
        <label>
          Numbers of agent{' '}
          <input value={lookup} onChange={(e) => setLookup(e.target.value)} required placeholder="PROJECT-…" />
        </label>
        <button type="submit" className="secondary">
          Show numbers
        </button>
      </form>
      {shown && <AgentNumbers key={`${shown.agentId}-${shown.read}`} agentId={shown.agentId} />}
    </section>
  );
}

/** One agent's numbers in every environment; a DNI pool number says whether a reservation holds it now. */
function AgentNumbers({ agentId }: { agentId: string }) {
  const { api } = useStudio();
  const numbers = useLoad(() => api.phoneNumbers(agentId), [api, agentId]);
  return (
    <>
      <ErrorNote error={numbers.error} />
      {!numbers.error && (
        <ListTable<PhoneNumber>
          caption={`Phone numbers of ${agentId}`}
          showCaption
          rows={numbers.data?.phoneNumbers}
          rowKey={(n) => n.number}
          empty="No phone numbers for this agent."
          columns={[
            { header: 'Number', cell: (n) => n.number },
            { header: 'Environment', cell: (n) => n.environment },
            { header: 'Pool', cell: (n) => (n.pool === 'dni' ? 'DNI pool' : 'main number') },
            {
              header: 'Reserved',
              cell: (n) =>
                n.pool !== 'dni' ? '—' : n.reserved && n.reservedUntil ? `until ${shortTime(n.reservedUntil)}` : 'free',
            },
            { header: 'Provisioned', cell: (n) => shortTime(n.provisionedAt) },
          ]}
        />
      )}
    </>
  );
}
