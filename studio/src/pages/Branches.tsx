import { useState, type FormEvent } from 'react';
import { useStudio } from '../api/context';
import { navigate } from '../router';
import { ErrorNote, Link, useAction, useLoad } from '../ui';
import { BranchEditor } from './BranchEditor';
import type { TopicPrefill } from './TopicEditor';

/** A new topic to fill in, when the dashboard's "Create topic from this" opened the editor. */
function prefillFromUrl(): TopicPrefill | undefined {
  const query = new URLSearchParams(window.location.search);
  const example = query.get('topic_query');
  return example ? { name: query.get('topic_name') ?? '', query: example } : undefined;
}

/** An agent's branches beside the editor of the chosen one (main when none is chosen). */
export function Branches({ agentId, branchId }: { agentId: string; branchId?: string }) {
  const { api } = useStudio();
  const branches = useLoad(() => api.branches(agentId), [api, agentId]);
  const [name, setName] = useState('');
  const [prefill, setPrefill] = useState(prefillFromUrl);
  const action = useAction();
  const current = branchId ?? 'main';
  const branch = branches.data?.branches.find((b) => b.branchId === current);

  const create = async (event: FormEvent) => {
    event.preventDefault();
    const created = await action.run(() => api.createBranch(agentId, name.trim()));
    if (created) {
      setName('');
      branches.reload();
      navigate(`/agents/${agentId}/branches/${created.branchId}`);
    }
  };

  return (
    <div className="split">
      <aside aria-label="Branches">
        <h2>Branches</h2>
        <ul className="list">
          <li>
            <Link to={`/agents/${agentId}/branches/main`} className={current === 'main' ? 'current' : ''}>
              main
            </Link>
          </li>
          {branches.data?.branches
            .filter((b) => b.branchId !== 'main')
            .map((b) => (
              <li key={b.branchId}>
                <Link
                  to={`/agents/${agentId}/branches/${b.branchId}`}
                  className={b.branchId === current ? 'current' : ''}
                >
                  {b.branchName}
                </Link>{' '}
                <span className={`badge ${b.status}`}>{b.status}</span>
              </li>
            ))}
        </ul>
        <form onSubmit={create} aria-label="Create a branch">
          <label htmlFor="branch-name">New branch</label>
          <input
            id="branch-name"
            value={name}
            onChange={(e) => setName(e.target.value)}
            pattern="[A-Za-z0-9][A-Za-z0-9._\/\-]{0,99}"
            title="1-100 letters, digits, . _ / -"
            required
          />
          <button type="submit" disabled={action.busy}>
            Create branch
          </button>
        </form>
        <ErrorNote error={action.error ?? branches.error} />
      </aside>
      <BranchEditor
        key={current}
        agentId={agentId}
        branchId={current}
        branchName={current === 'main' ? 'main' : (branch?.branchName ?? current)}
        readOnly={current === 'main' || branch?.status === 'merged'}
        baseSequence={branch?.sequenceId}
        prefill={prefill}
        onPrefillUsed={() => {
          setPrefill(undefined);
          window.history.replaceState(window.history.state, '', window.location.pathname);
        }}
        onMerged={() => {
          branches.reload();
          navigate(`/agents/${agentId}/deployments`);
        }}
      />
    </div>
  );
}
