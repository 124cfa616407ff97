import { useId, useState, type FormEvent } from 'react';
import { useStudio } from '../api/context';
import type { TestCase } from '../api/types';
import { emptyTurn, rowToTurn, turnToRow, type TurnRow } from '../tool-form';
import { FormButtons, FormRow } from '../components/FormRow';
import { ErrorNote, useAction, useLoad } from '../ui';

const MAX_TURNS = 50;

/** A branch's test cases (contract §19): scripted user turns and what each answer must do. */
export function TestsTab({ agentId, branchId, readOnly }: { agentId: string; branchId: string; readOnly: boolean }) {
  const { api } = useStudio();
  const tests = useLoad(() => api.tests(agentId, branchId), [api, agentId, branchId]);
  return (
    <section aria-labelledby="tests-title">
      <h3 id="tests-title">Tests</h3>
      <p className="hint">Every merge and promotion runs main&apos;s tests against the new deployment.</p>
      <ErrorNote error={tests.error} />
      {tests.data?.length === 0 && (
        <p className="hint">No test cases on this branch: add one below; each merge and promotion then runs them.</p>
      )}
      {tests.data?.map((test) => (
        <TestEditor
          key={test.id}
          agentId={agentId}
          branchId={branchId}
          test={test}
          readOnly={readOnly}
          onChanged={tests.reload}
        />
      ))}
      {!readOnly && <TestEditor agentId={agentId} branchId={branchId} readOnly={false} onChanged={tests.reload} />}
    </section>
  );
}

function TestEditor(props: {
  agentId: string;
  branchId: string;
  test?: TestCase;
  readOnly: boolean;
  onChanged: () => void;
}) {
  const { agentId, branchId, test, readOnly } = props;
  const { api } = useStudio();
  const id = useId();
  const [name, setName] = useState(test?.name ?? '');
  const [rows, setRows] = useState<TurnRow[]>(test ? test.turns.map(turnToRow) : [emptyTurn()]);
  const action = useAction();
  const invalid = !name.trim() || rows.length === 0 || rows.some((r) => !r.user.trim());

  const change = (i: number, patch: Partial<TurnRow>) =>
    setRows((all) => all.map((r, j) => (j === i ? { ...r, ...patch } : r)));
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (invalid) return;
    const body = { name: name.trim(), turns: rows.map(rowToTurn) };
    const ok = await action.run(async () => {
      if (test) await api.editTest(agentId, branchId, test.id, body);
      else await api.addTest(agentId, branchId, body);
      return true;
    });
    if (!ok) return;
    if (!test) {
      setName('');
      setRows([emptyTurn()]);
    }
    props.onChanged();
  };
  const remove = async () => {
    if (!test || !window.confirm(`Delete the test ${test.name}?`)) return;
    if (await action.run(() => api.removeTest(agentId, branchId, test.id).then(() => true))) props.onChanged();
  };

  const text = (i: number, field: 'user' | 'topic' | 'contains' | 'notContains' | 'actions', label: string) => (
    <label>
      {label}{' '}
      <input
        value={rows[i][field]}
        onChange={(e) => change(i, { [field]: e.target.value })}
        readOnly={readOnly}
        required={field === 'user'}
      />
    </label>
  );
  const flag = (i: number, field: 'handoff' | 'outOfDomain' | 'endConversation', label: string) => (
    <label>
      <input
        type="checkbox"
        checked={rows[i][field]}
        disabled={readOnly}
        onChange={(e) => change(i, { [field]: e.target.checked })}
      />{' '}
      {label}
    </label>
  );

  const form = (
    <form onSubmit={submit} className="topic-form" aria-label={test ? `Test ${test.name}` : 'New test'}>
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
      <ol className="turns">
        {rows.map((_, i) => (
          <li key={i}>
            <fieldset aria-label={`Turn ${i + 1}`}>
              <legend>Turn {i + 1}</legend>
              {text(i, 'user', 'User says')}
              {text(i, 'topic', 'Expect topic')}
              {text(i, 'contains', 'Answer contains')}
              {text(i, 'notContains', 'Answer does not contain')}
              {text(i, 'actions', 'Actions run (comma-separated)')}
              <div className="row">
                {flag(i, 'handoff', 'hands off')}
                {flag(i, 'outOfDomain', 'out of domain')}
                {flag(i, 'endConversation', 'ends the conversation')}
                {!readOnly && rows.length > 1 && (
                  <button type="button" onClick={() => setRows((all) => all.filter((__, j) => j !== i))}>
                    Remove turn {i + 1}
                  </button>
                )}
              </div>
            </fieldset>
          </li>
        ))}
      </ol>
      {!readOnly && (
        <div className="row">
          <FormButtons noun="test" editing={!!test} busy={action.busy} disabled={invalid} onDelete={remove}>
            <button
              type="button"
              onClick={() => setRows((all) => [...all, emptyTurn()])}
              disabled={rows.length >= MAX_TURNS}
            >
              Add a turn
            </button>
          </FormButtons>
        </div>
      )}
      <ErrorNote error={action.error} />
    </form>
  );

  if (!test) {
    return (
      <details className="topic new-topic">
        <summary>New test</summary>
        {form}
      </details>
    );
  }
  return (
    <details className="topic" data-test={test.name}>
      <summary>
        <span className="topic-name">{test.name}</span>{' '}
        <span className="hint">
          {test.turns.length} turn{test.turns.length === 1 ? '' : 's'}
        </span>
      </summary>
      {form}
    </details>
  );
}
