import { useId, useState, type FormEvent } from 'react';
import { useStudio } from '../api/context';
import { BranchPicker, chosenBranchId, NEW_BRANCH, openBranches } from '../components/BranchPicker';
import { suggestTopicName } from '../dashboard/topic-name';
import { branchChangesPath, topicEditorPath } from '../pages/branch-paths';
import { navigate } from '../router';
import { ErrorNote, Link, useAction, useLoad } from '../ui';
import { todaysFixes } from './fixes-branch';
import { TopicSearch } from './TopicSearch';
import './learning.css';

/** Where the words come from: a conversation's user turn (the server reads it) or the words themselves. */
export type WordsSource = { conversationId: string; turnIndex: number } | { query: string };

interface Added {
  added: boolean;
  query: string;
  topic: string;
  branchId: string;
  branchName: string;
}

/**
 * "Should have been…" (issue 54): the words go to a topic, as one of its example queries, on a
 * branch to review and merge: today's `fixes/<date>` unless another open branch is chosen (a new
 * one is cut from main when it is first used). Or "New topic from this" opens the branch editor
 * with a topic prefilled from the words. After adding, a link to what the branch changes.
 */
export function ShouldHaveBeen(props: { agentId: string; source: WordsSource; words: string; onClose: () => void }) {
  const { agentId, source, words } = props;
  const { api } = useStudio();
  const id = useId();
  const branches = useLoad(() => api.branches(agentId), [api, agentId]);
  const open = openBranches(branches.data?.branches);
  const [now] = useState(() => new Date());
  const today = branches.data ? todaysFixes(branches.data.branches, now) : null;
  const [typed, setTyped] = useState<string | null>(null);
  const newName = typed ?? today?.name ?? '';
  const [target, setTarget] = useState<string | null>(null);
  // today's fixes branch when it is open, else a new one of that name
  const chosen = target ?? today?.open?.branchId ?? NEW_BRANCH;
  // a new branch is cut from main: until then, main's topics are the ones it will have
  const topics = useLoad(() => api.topics(agentId, chosen === NEW_BRANCH ? 'main' : chosen), [api, agentId, chosen]);
  const [topicName, setTopicName] = useState<string | null>(null);
  const [done, setDone] = useState<Added | null>(null);
  const action = useAction();
  const branchName =
    chosen === NEW_BRANCH ? newName.trim() : (open.find((b) => b.branchId === chosen)?.branchName ?? '');

  /** The chosen branch, made now if it is new (and chosen from then on, so it is made once). */
  const branch = async () => {
    const branchId = await chosenBranchId(api, agentId, chosen, newName);
    if (chosen === NEW_BRANCH) {
      setTarget(branchId);
      branches.reload();
    }
    return branchId;
  };
  const topic = topics.data?.find((t) => t.name === topicName);
  const add = async (event: FormEvent) => {
    event.preventDefault();
    if (!topic) return;
    setDone(null);
    const answer = await action.run(async () => {
      const branchId = await branch();
      return api.addExampleQuery(agentId, branchId, { ...source, topicId: topic.id });
    });
    if (answer)
      setDone({
        added: answer.added,
        query: answer.query,
        topic: answer.topic.name,
        branchId: answer.branchId,
        branchName,
      });
  };
  const newTopic = async () => {
    const branchId = await action.run(branch);
    if (branchId) navigate(topicEditorPath(agentId, branchId, suggestTopicName(words), words));
  };

  return (
    <form className="panel learn" aria-label="Should have been" onSubmit={add}>
      <p>“{words}” should have been answered by</p>
      <ErrorNote error={branches.error ?? topics.error} />
      {topics.data && (
        <TopicSearch id={`${id}-topic`} topics={topics.data} chosen={topicName} onChoose={setTopicName} />
      )}
      <div className="row">
        {branches.data && (
          <BranchPicker
            id={`${id}-branch`}
            branches={open}
            chosen={chosen}
            onChoose={(b) => setTarget(b)}
            newName={newName}
            onNewName={setTyped}
          />
        )}
      </div>
      <div className="row">
        <button type="submit" disabled={action.busy || !topic}>
          Add to topic
        </button>
        <button type="button" className="secondary" onClick={newTopic} disabled={action.busy || !branches.data}>
          New topic from this
        </button>
        <button type="button" className="secondary" onClick={props.onClose}>
          Close
        </button>
      </div>
      <ErrorNote error={action.error} />
      {done && (
        <p role="status" className="learned">
          {done.added
            ? `Added “${done.query}” to ${done.topic} on ${done.branchName}.`
            : `${done.topic} on ${done.branchName} already has “${done.query}”: nothing changed.`}{' '}
          <Link to={branchChangesPath(agentId, done.branchId)}>See what {done.branchName} changes</Link>
        </p>
      )}
    </form>
  );
}
