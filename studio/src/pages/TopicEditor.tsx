import { useEffect, useId, useMemo, useRef, useState, type FormEvent } from 'react';
import { checkActions, KNOWN_ACTIONS } from '../actions-help';
import { useStudio } from '../api/context';
import type { Topic } from '../api/types';
import { FormButtons, FormRow } from '../components/FormRow';
import { ErrorNote, useAction } from '../ui';

/** A new topic's name and first example query, filled in for the person to complete. */
export interface TopicPrefill {
  name: string;
  query: string;
}

/**
 * Edits one topic (or, without `topic`, adds a new one, opened and filled in from `prefill`
 * when given); actions are checked as they are typed.
 */
export function TopicEditor(props: {
  agentId: string;
  branchId: string;
  topic?: Topic;
  readOnly: boolean;
  onChanged: () => void;
  prefill?: TopicPrefill;
}) {
  const { agentId, branchId, topic, readOnly } = props;
  const { api } = useStudio();
  const id = useId();
  const [name, setName] = useState(topic?.name ?? props.prefill?.name ?? '');
  const [content, setContent] = useState(topic?.content ?? '');
  const [queries, setQueries] = useState(
    (topic?.exampleQueries.queries ?? (props.prefill ? [props.prefill.query] : [])).join('\n'),
  );
  const [actions, setActions] = useState(topic?.actions ?? '');
  const action = useAction();
  const problems = useMemo(() => checkActions(actions), [actions]);
  const hasErrors = problems.some((p) => p.severity === 'error');
  // a prefilled new topic opens at once, in view, its content (the answer to write) focused
  const details = useRef<HTMLDetailsElement | null>(null);
  const prefilled = !!props.prefill && !topic;
  useEffect(() => {
    if (!prefilled || !details.current) return;
    details.current.open = true;
    details.current.scrollIntoView({ block: 'center' });
    document.getElementById(`${id}-content`)?.focus();
  }, [prefilled, id]);

  const body = () => ({
    name: name.trim(),
    content,
    actions,
    exampleQueries: {
      queries: queries
        .split('\n')
        .map((q) => q.trim())
        .filter(Boolean),
    },
  });
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (hasErrors) return;
    // said in words before the API's "must be longer than or equal to 1 characters"; an empty answer is an empty bubble
    if (!name.trim()) return action.setError(new Error('Give the topic a name: it cannot be blank.'));
    if (!content.trim())
      return action.setError(
        new Error('Write the topic’s content: it is what the agent answers, and cannot be empty.'),
      );
    const ok = await action.run(async () => {
      if (topic) await api.editTopic(agentId, branchId, topic.id, body());
      else await api.addTopic(agentId, branchId, { ...body(), isActive: true });
      return true;
    });
    if (ok) {
      if (!topic) {
        setName('');
        setContent('');
        setQueries('');
        setActions('');
      }
      props.onChanged();
    }
  };
  const setActive = async (isActive: boolean) => {
    if (!topic) return;
    const ok = await action.run(async () => {
      await api.editTopic(agentId, branchId, topic.id, { isActive });
      return true;
    });
    if (ok) props.onChanged();
  };
  const remove = async () => {
    if (!topic || !window.confirm(`Delete the topic ${topic.name}?`)) return;
    const ok = await action.run(async () => {
      await api.removeTopic(agentId, branchId, topic.id);
      return true;
    });
    if (ok) props.onChanged();
  };

  const form = (
    <form onSubmit={submit} className="topic-form" aria-label={topic ? `Topic ${topic.name}` : 'New topic'}>
      <FormRow id={`${id}-name`} label="Name">
        <input
          id={`${id}-name`}
          value={name}
          onChange={(e) => setName(e.target.value)}
          readOnly={readOnly}
          required
          maxLength={200}
        />
      </FormRow>
      <FormRow id={`${id}-content`} label="Content (the answer)">
        <textarea
          id={`${id}-content`}
          rows={3}
          value={content}
          onChange={(e) => setContent(e.target.value)}
          readOnly={readOnly}
          aria-required
          maxLength={100_000}
        />
      </FormRow>
      <FormRow id={`${id}-queries`} label="Example queries (one a line)">
        <textarea
          id={`${id}-queries`}
          rows={3}
          value={queries}
          onChange={(e) => setQueries(e.target.value)}
          readOnly={readOnly}
        />
      </FormRow>
      <FormRow id={`${id}-actions`} label={<>Actions (one a line: name key=value key=&quot;quoted value&quot;)</>}>
        <textarea
          id={`${id}-actions`}
          className="mono"
          rows={3}
          value={actions}
          onChange={(e) => setActions(e.target.value)}
          readOnly={readOnly}
          aria-invalid={hasErrors}
          aria-describedby={`${id}-problems ${id}-help`}
          maxLength={10_000}
        />
      </FormRow>
      <ul id={`${id}-problems`} className="problems" aria-live="polite">
        {problems.map((p, i) => (
          <li key={i} className={p.severity} data-severity={p.severity}>
            line {p.line}: {p.message}
          </li>
        ))}
      </ul>
      <details id={`${id}-help`} className="hint">
        <summary>Action syntax</summary>
        <ul>
          {Object.values(KNOWN_ACTIONS).map((example) => (
            <li key={example}>
              <code>{example}</code>
            </li>
          ))}
          <li>
            <code>$state.key</code> in a value reads the conversation&apos;s state; <code>#</code> starts a comment
            line.
          </li>
        </ul>
      </details>
      {!readOnly && (
        <div className="row">
          <FormButtons noun="topic" editing={!!topic} busy={action.busy} disabled={hasErrors} onDelete={remove} />
        </div>
      )}
      <ErrorNote error={action.error} />
    </form>
  );

  if (!topic) {
    return (
      <details className="topic new-topic" ref={details}>
        <summary>New topic</summary>
        {form}
      </details>
    );
  }
  // the switch sits beside the summary, not in it: a control inside <summary> is nested-interactive
  return (
    <div className="topic" data-topic={topic.name}>
      <div className="topic-head">
        <details className="topic-body">
          <summary>
            <span className="topic-name">{topic.name}</span>
          </summary>
          {form}
        </details>
        <label className="switch">
          <input
            type="checkbox"
            role="switch"
            checked={topic.isActive}
            disabled={readOnly || action.busy}
            onChange={(e) => setActive(e.target.checked)}
            aria-label={`${topic.name} active`}
          />{' '}
          {topic.isActive ? 'active' : 'inactive'}
        </label>
      </div>
    </div>
  );
}
