import { useState, type FormEvent } from 'react';
import { useStudio } from '../api/context';
import { navigate } from '../router';
import { ErrorNote, Link, shortTime, useAction, useLoad } from '../ui';

export function Agents() {
  const { api, session } = useStudio();
  const accountId = session.accountId!;
  const agents = useLoad(() => api.agents(accountId), [api, accountId]);
  const [name, setName] = useState('');
  const [greeting, setGreeting] = useState('Hello! How can I help?');
  const action = useAction();

  const create = async (event: FormEvent) => {
    event.preventDefault();
    const agent = await action.run(() => api.createAgent(accountId, name.trim(), greeting));
    // a new agent has nothing to chart yet: it opens where it is built
    if (agent) navigate(`/agents/${agent.agentId}/branches`);
  };
  const remove = async (agentId: string, agentName: string) => {
    if (!window.confirm(`Delete the agent ${agentName}? Its conversations stay readable.`)) return;
    const deleted = await action.run(async () => {
      await api.deleteAgent(agentId);
      return true;
    });
    if (deleted) agents.reload();
  };

  return (
    <section aria-labelledby="agents-title">
      <h1 id="agents-title">Agents</h1>
      <form onSubmit={create} className="row" aria-label="Create an agent">
        <label>
          Name <input value={name} onChange={(e) => setName(e.target.value)} required maxLength={200} />
        </label>
        <label className="grow">
          Greeting <input value={greeting} onChange={(e) => setGreeting(e.target.value)} required maxLength={2000} />
        </label>
        <button type="submit" disabled={action.busy}>
          Create agent
        </button>
      </form>
      <ErrorNote error={action.error ?? agents.error} />
      {agents.data && agents.data.length === 0 && <p>No agents yet.</p>}
      <table>
        <caption className="sr-only">Agents</caption>
        <thead>
          <tr>
            <th scope="col">Name</th>
            <th scope="col">Id</th>
            <th scope="col">Created</th>
            <th scope="col">Actions</th>
          </tr>
        </thead>
        <tbody>
          {agents.data?.map((agent) => (
            <tr key={agent.agentId}>
              <td>
                <Link to={`/agents/${agent.agentId}`}>{agent.agentName}</Link>
              </td>
              <td>
                <code>{agent.agentId}</code>
              </td>
              <td>{shortTime(agent.createdAt ?? '')}</td>
              <td className="actions">
                <Link to={`/agents/${agent.agentId}/conversations`}>Conversations</Link>
                <button type="button" className="danger" onClick={() => remove(agent.agentId, agent.agentName)}>
                  Delete {agent.agentName}
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
