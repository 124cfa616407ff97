import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useStudio } from '../api/context';
import { navigate } from '../router';
import { ErrorNote, useAction, useLoad } from '../ui';
import { suggestBranchName, suggestTopicName } from './topic-name';

const NEW = '';

/** Where the branch editor opens with a new topic prefilled (Branches reads these). */
function topicEditorPath(agentId: string, branchId: string, name: string, query: string): string {
  return `/agents/${agentId}/branches/${branchId}?${new URLSearchParams({ topic_name: name, topic_query: query })}`;
}

/**
 * "Create topic from this": which branch gets the topic. Changes are made on a branch and merged,
 * as everywhere in Studio: an open branch (the newest first) or a new one cut from main under a
 * suggested name, created here as the Branches tab creates one. Then the branch editor opens with
 * the new topic filled in: the input as its first example query, and a suggested name.
 */
export function CreateTopic(props: { agentId: string; text: string; onCancel: () => void }) {
  const { agentId, text } = props;
  const { api } = useStudio();
  const branches = useLoad(() => api.branches(agentId), [api, agentId]);
  const open = (branches.data?.branches ?? [])
    .filter((b) => b.status === 'open' && b.branchId !== 'main')
    .sort((a, b) => b.createdAt.localeCompare(a.createdAt));
  const topicName = suggestTopicName(text);
  const [target, setTarget] = useState<string | null>(null);
  const [branchName, setBranchName] = useState(() => suggestBranchName(topicName));
  const action = useAction();
  const first = useRef<HTMLSelectElement | null>(null);
  const chosen = target ?? open[0]?.branchId ?? NEW;
  useEffect(() => {
    if (branches.data) first.current?.focus();
  }, [branches.data]);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const branchId = await action.run(async () =>
      chosen === NEW ? (await api.createBranch(agentId, branchName.trim())).branchId : chosen,
    );
    if (branchId) navigate(topicEditorPath(agentId, branchId, topicName, text));
  };

  return (
    <form className="panel create-topic" aria-label="Create a topic" onSubmit={submit}>
      <p>
        A new topic <strong>{topicName}</strong> answering “{text}”, on
      </p>
      <ErrorNote error={branches.error} />
      {branches.data && (
        <div className="row">
          <div className="field">
            <label htmlFor="create-topic-branch">Branch</label>
            <select id="create-topic-branch" ref={first} value={chosen} onChange={(e) => setTarget(e.target.value)}>
              {open.map((b) => (
                <option key={b.branchId} value={b.branchId}>
                  {b.branchName}
                </option>
              ))}
              <option value={NEW}>a new branch</option>
            </select>
          </div>
          {chosen === NEW && (
            <label>
              New branch name
              <input
                value={branchName}
                onChange={(e) => setBranchName(e.target.value)}
                pattern="[A-Za-z0-9][A-Za-z0-9._/\-]{0,99}"
                title="1-100 letters, digits, . _ / -"
                required
              />
            </label>
          )}
          <button type="submit" disabled={action.busy}>
            Open in the branch editor
          </button>
          <button type="button" className="secondary" onClick={props.onCancel}>
            Cancel
          </button>
        </div>
      )}
      {branches.data && open.length === 0 && (
        <p className="hint">The agent has no open branch: a new one is cut from main. Merge it to deploy the topic.</p>
      )}
      <ErrorNote error={action.error} />
    </form>
  );
}
