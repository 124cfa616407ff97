import { useState, type FormEvent } from 'react';
import { useStudio } from '../api/context';
import { navigate } from '../router';
import { ErrorNote, Link, Name, plainName, shortTime, useAction, useLoad } from '../ui';

export function Agents() {
  const { api, session } = useStudio();
  const accountId = session.accountId!;
  const agents = useLoad(() => api.agents(accountId), [api, accountId]);
  const [name, setName] = useState('');
  const [greeting, setGreeting] = useState('Hello! How can I help?');
  const action = useAction();

  const create = async (event: FormEvent) => {
    event.preventDefault();
    if (!name.trim()) return action.setError(new Error('Give the agent a name: it cannot be blank.'));
    const agent = await action.run(() => api.createAgent(accountId, name.trim(), greeting));
    // a new agent has nothing to chart yet: it opens where it is built
    if (agent) navigate(`/agents/${agent.agentId}/branches`);
  };
  const remove = async (agentId: string, agentName: string) => {
    if (!window.confirm(`Delete the agent ${plainName(agentName)}? Its conversations stay readable.`)) return;
    const deleted = await action.run(async () => {
      await api.deleteAgent(agentId);
      return true;
    });
    if (deleted) agents.reload();
  };

  return (
    <section aria-labelledby="agents-title">
      <h1 id="agents-title">Agents</h1>
      {agents.data?.length === 0 && <p className="hint">Start here: name your first agent and create it.</p>}
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
      {agents.data && agents.data.length === 0 && <FirstRun />}
      {agents.data && agents.data.length > 0 && (
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
                  <Link to={`/agents/${agent.agentId}`}>
                    <Name>{agent.agentName}</Name>
                  </Link>
                </td>
                <td>
                  <code>{agent.agentId}</code>
                </td>
                <td>{shortTime(agent.createdAt ?? '')}</td>
                <td className="actions">
                  <Link to={`/agents/${agent.agentId}/conversations`}>Conversations</Link>
                  <button type="button" className="danger" onClick={() => remove(agent.agentId, agent.agentName)}>
                    Delete <Name>{agent.agentName}</Name>
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

/** An empty account opens on the four steps from nothing to a deployed agent, instead of an empty table. */
function FirstRun() {
  return (
    <section className="callout first-run" aria-labelledby="first-run-title" data-testid="first-run">
      <h2 id="first-run-title">Get started in four steps</h2>
      <ol>
        <li>
          <strong>Create an agent</strong>: give it a name and a greeting above, then <q>Create agent</q>.
        </li>
        <li>
          <strong>Add a topic</strong>: on the agent&apos;s Branches tab, make a branch, add a topic (what people ask
          and what it answers) and merge the branch.
        </li>
        <li>
          <strong>Try it</strong>: chat with the sandbox deployment the merge made, on the Try it tab.
        </li>
        <li>
          <strong>Deploy</strong>: on the Deployments tab, promote it to pre-release, then to live.
        </li>
      </ol>
    </section>
  );
}
