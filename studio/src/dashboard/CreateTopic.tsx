import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useStudio } from '../api/context';
import { BranchPicker, chosenBranchId, NEW_BRANCH, openBranches } from '../components/BranchPicker';
import { topicEditorPath } from '../pages/branch-paths';
import { navigate } from '../router';
import { ErrorNote, useAction, useLoad } from '../ui';
import { suggestBranchName, suggestTopicName } from './topic-name';

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
  const open = openBranches(branches.data?.branches);
  const topicName = suggestTopicName(text);
  const [target, setTarget] = useState<string | null>(null);
  const [branchName, setBranchName] = useState(() => suggestBranchName(topicName));
  const action = useAction();
  const first = useRef<HTMLSelectElement | null>(null);
  const chosen = target ?? open[0]?.branchId ?? NEW_BRANCH;
  useEffect(() => {
    if (branches.data) first.current?.focus();
  }, [branches.data]);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const branchId = await action.run(() => chosenBranchId(api, agentId, chosen, branchName));
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
          <BranchPicker
            id="create-topic-branch"
            branches={open}
            chosen={chosen}
            onChoose={setTarget}
            newName={branchName}
            onNewName={setBranchName}
            selectRef={first}
          />
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
