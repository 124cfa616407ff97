import { useEffect, useState } from 'react';
import { useStudio } from '../api/context';
import type { Topic } from '../api/types';
import { ErrorNote, useAction, useLoad } from '../ui';
import { BranchChanges } from './BranchChanges';
import { MergePanel } from './MergePanel';
import { TestsTab } from './TestsTab';
import { ToolsTab } from './ToolsTab';
import { TopicEditor, type TopicPrefill } from './TopicEditor';

const SECTIONS = ['Topics', 'Tools', 'Tests', 'Changes'] as const;
type Section = (typeof SECTIONS)[number];

/** The tab a link asked for (`?view=changes`: what the branch changes, where the learning loop links). */
const askedSection = (): Section =>
  new URLSearchParams(window.location.search).get('view') === 'changes' ? 'Changes' : 'Topics';

/** A branch's behavior and topics; main and merged branches are shown read-only (the API refuses writes). */
export function BranchEditor(props: {
  agentId: string;
  branchId: string;
  branchName: string;
  readOnly: boolean;
  /** main's sequence the branch was cut from (its `sequenceId`): what Changes compares with */
  baseSequence?: string;
  onMerged: () => void;
  /** a new topic to open filled in (ignored when read-only) */
  prefill?: TopicPrefill;
  onPrefillUsed?: () => void;
}) {
  const { agentId, branchId, readOnly } = props;
  const { api } = useStudio();
  const behavior = useLoad(() => api.behavior(agentId, branchId), [api, agentId, branchId]);
  const topics = useLoad(() => api.topics(agentId, branchId), [api, agentId, branchId]);
  const [text, setText] = useState('');
  const [saved, setSaved] = useState(false);
  const save = useAction();
  const [section, setSection] = useState<Section>(askedSection);
  // main has no changes of its own: it is what branches change
  const sections = SECTIONS.filter((s) => s !== 'Changes' || (branchId !== 'main' && props.baseSequence));
  useEffect(() => {
    if (behavior.data) setText(behavior.data.behavior);
  }, [behavior.data]);

  const saveBehavior = async () => {
    setSaved(false);
    const ok = await save.run(async () => {
      await api.editBehavior(agentId, branchId, text);
      return true;
    });
    if (ok) setSaved(true);
  };

  return (
    <div className="editor">
      <h2>
        Branch <code>{props.branchName}</code> {readOnly && <span className="badge">read-only</span>}
      </h2>
      <div className="tabs" role="tablist" aria-label="Branch sections">
        {sections.map((s) => (
          <button
            key={s}
            type="button"
            role="tab"
            aria-selected={section === s}
            className={section === s ? 'tab current' : 'tab'}
            onClick={() => setSection(s)}
          >
            {s}
          </button>
        ))}
      </div>
      {section === 'Tools' && <ToolsTab agentId={agentId} branchId={branchId} readOnly={readOnly} />}
      {section === 'Tests' && <TestsTab agentId={agentId} branchId={branchId} readOnly={readOnly} />}
      {section === 'Changes' && props.baseSequence && (
        <BranchChanges agentId={agentId} branchId={branchId} baseSequence={props.baseSequence} />
      )}
      <section aria-labelledby="behavior-title" hidden={section !== 'Topics'}>
        <h3 id="behavior-title">Behavior</h3>
        <label htmlFor="behavior" className="sr-only">
          Behavior
        </label>
        <textarea
          id="behavior"
          rows={5}
          value={text}
          readOnly={readOnly}
          maxLength={100_000}
          onChange={(e) => {
            setText(e.target.value);
            setSaved(false);
          }}
        />
        {!readOnly && (
          <button type="button" onClick={saveBehavior} disabled={save.busy}>
            Save behavior
          </button>
        )}
        {saved && <span role="status"> Saved.</span>}
        <ErrorNote error={save.error ?? behavior.error} />
      </section>
      <section aria-labelledby="topics-title" hidden={section !== 'Topics'}>
        <h3 id="topics-title">Topics</h3>
        <ErrorNote error={topics.error} />
        {topics.data?.length === 0 && (
          <p className="hint" data-testid="no-topics">
            {readOnly
              ? branchId === 'main'
                ? 'No topics yet. main is changed by merging a branch: create one under New branch, add topics there, then merge it.'
                : 'No topics on this branch.'
              : 'No topics yet: add one below (what people ask, and what the agent answers), then merge the branch.'}
          </p>
        )}
        {topics.data?.map((topic: Topic) => (
          <TopicEditor
            key={topic.id}
            agentId={agentId}
            branchId={branchId}
            topic={topic}
            readOnly={readOnly}
            onChanged={topics.reload}
          />
        ))}
        {!readOnly && (
          <TopicEditor
            key={props.prefill ? 'prefilled' : 'new'}
            agentId={agentId}
            branchId={branchId}
            readOnly={false}
            prefill={props.prefill}
            onChanged={() => {
              topics.reload();
              if (props.prefill) props.onPrefillUsed?.();
            }}
          />
        )}
      </section>
      {branchId !== 'main' && !readOnly && (
        <MergePanel agentId={agentId} branchId={branchId} onMerged={props.onMerged} />
      )}
    </div>
  );
}
