import {
  cloneElement,
  useEffect,
  useMemo,
  useState,
  type FormEvent,
  type InputHTMLAttributes,
  type ReactElement,
} from 'react';
import { useStudio } from '../api/context';
import { chosenBranchId, NEW_BRANCH, openBranches } from '../components/BranchPicker';
import { ErrorNote, Link, useAction, useLoad } from '../ui';
import { branchSettings, putBranchSettings, type BranchSettings } from './settings-api';
import {
  changesOf,
  draftOf,
  MODEL_SLOTS,
  patchOf,
  problemsOf,
  show,
  valuesOf,
  type Change,
  type ModelDraft,
  type ModelSlot,
  type SettingsDraft,
} from './settings-form';
import './settings.css';

const MAIN = 'main';

/**
 * An agent's settings (issue 50), where the API keeps each: the runtime settings and voice
 * recording on a branch (versioned like the behavior: edited on a branch, merged onto main, carried
 * by each deployment), the greeting on the agent, and data access on the project (at once, for
 * every deployment).
 */
export function AgentSettings({ agentId }: { agentId: string }) {
  const { api, session } = useStudio();
  const branches = useLoad(() => api.branches(agentId), [api, agentId]);
  const open = useMemo(() => openBranches(branches.data?.branches), [branches.data]);
  const [chosen, setChosen] = useState<string | null>(null);
  const [newName, setNewName] = useState('settings');
  // kept here: saving on a new branch opens that branch, and its form, anew
  const [saved, setSaved] = useState<Saved | null>(null);
  // opens on the newest open branch, else on main (read only) with the offer of a new branch
  useEffect(() => {
    if (chosen === null && branches.data) setChosen(open[0]?.branchId ?? MAIN);
  }, [chosen, branches.data, open]);
  const branchName = (id: string) => open.find((b) => b.branchId === id)?.branchName ?? id;

  return (
    <section aria-labelledby="settings-title" className="settings">
      <h2 id="settings-title">Settings</h2>
      <ErrorNote error={branches.error} />
      <section aria-labelledby="runtime-title" className="panel">
        <h3 id="runtime-title">Runtime settings</h3>
        <p className="hint">
          Versioned with the behavior: edited on a branch, merged onto main, and carried by each deployment, so each
          environment runs the settings of its active deployment. Saving sends only the fields you changed (the
          API&apos;s <code>PUT …/branches/{'{branch}'}/settings</code> leaves the others as they are).
        </p>
        <div className="row">
          <label htmlFor="settings-branch">Branch</label>
          <select
            id="settings-branch"
            value={chosen ?? ''}
            onChange={(e) => {
              setSaved(null);
              setChosen(e.target.value);
            }}
          >
            {open.map((b) => (
              <option key={b.branchId} value={b.branchId}>
                {b.branchName}
              </option>
            ))}
            <option value={MAIN}>main (read only)</option>
            <option value={NEW_BRANCH}>a new branch</option>
          </select>
          {chosen === NEW_BRANCH && (
            <label>
              New branch name
              <input value={newName} onChange={(e) => setNewName(e.target.value)} required />
            </label>
          )}
          {chosen && chosen !== MAIN && chosen !== NEW_BRANCH && (
            <Link to={`/agents/${agentId}/branches/${chosen}?view=changes`}>Review and merge {branchName(chosen)}</Link>
          )}
        </div>
        {chosen !== null && (
          <RuntimeSettingsForm
            key={chosen}
            agentId={agentId}
            // a new branch starts as main is
            loadFrom={chosen === NEW_BRANCH ? MAIN : chosen}
            readOnly={chosen === MAIN}
            onSaved={setSaved}
            save={async (patch) => {
              const branchId = await chosenBranchId(api, agentId, chosen, newName);
              const answer = await putBranchSettings(api, agentId, branchId, patch);
              if (branchId !== chosen) {
                branches.reload();
                setChosen(branchId);
              }
              return { answer, branchName: chosen === NEW_BRANCH ? newName.trim() : branchName(branchId) };
            }}
          />
        )}
        {saved && <SavedChanges saved={saved} />}
      </section>
      <Greeting />
      {session.accountId && <DataAccessSettings accountId={session.accountId} agentId={agentId} />}
    </section>
  );
}

type Saved = { changes: Change[]; branchName: string };

function RuntimeSettingsForm(props: {
  agentId: string;
  loadFrom: string;
  readOnly: boolean;
  onSaved: (saved: Saved | null) => void;
  save: (patch: ReturnType<typeof patchOf>) => Promise<{ answer: BranchSettings; branchName: string }>;
}) {
  const { api } = useStudio();
  const current = useLoad(
    () => branchSettings(api, props.agentId, props.loadFrom),
    [api, props.agentId, props.loadFrom],
  );
  const [draft, setDraft] = useState<SettingsDraft | null>(null);
  const [loaded, setLoaded] = useState<BranchSettings | null>(null);
  const action = useAction();
  useEffect(() => {
    if (!current.data) return;
    setLoaded(current.data);
    setDraft(draftOf(current.data.settings, current.data.customized));
  }, [current.data]);

  const values = useMemo(() => (draft ? valuesOf(draft) : null), [draft]);
  const problems = useMemo(() => (values ? problemsOf(values) : {}), [values]);
  const changes = useMemo(
    () => (values && loaded ? changesOf(values, valuesOf(draftOf(loaded.settings, loaded.customized))) : []),
    [values, loaded],
  );
  if (!draft || !loaded) return <ErrorNote error={current.error} />;
  const set = (patch: Partial<SettingsDraft>) => setDraft({ ...draft, ...patch });
  const setModel = (slot: ModelSlot, patch: Partial<ModelDraft>) =>
    set({ models: { ...draft.models, [slot]: { ...draft.models[slot], ...patch } } });
  const invalid = Object.keys(problems).length > 0;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    props.onSaved(null);
    const done = await action.run(() => props.save(patchOf(changes)));
    if (!done) return;
    props.onSaved({ changes, branchName: done.branchName });
    setLoaded(done.answer);
    setDraft(draftOf(done.answer.settings, done.answer.customized));
  };

  return (
    <form onSubmit={submit} aria-label="Runtime settings" className="settings-form">
      <fieldset disabled={props.readOnly}>
        <legend>Answers</legend>
        <Field
          id="confidence-threshold"
          label="Confidence threshold (0 to 1; blank: the platform's default)"
          problem={problems.confidence_threshold}
        >
          <input
            id="confidence-threshold"
            inputMode="decimal"
            value={draft.confidence_threshold}
            placeholder={String(loaded.settings.confidence_threshold)}
            onChange={(e) => set({ confidence_threshold: e.target.value })}
          />
        </Field>
        <Field id="fallback-text" label="Fallback answer (1 to 2000 characters)" problem={problems.fallback_text}>
          <textarea
            id="fallback-text"
            rows={2}
            value={draft.fallback_text}
            onChange={(e) => set({ fallback_text: e.target.value })}
          />
        </Field>
        <label>
          <input type="checkbox" checked={draft.small_talk} onChange={(e) => set({ small_talk: e.target.checked })} />
          Small talk (greetings, thanks and goodbyes get a polite reply; a goodbye ends the conversation)
        </label>
      </fieldset>
      <fieldset disabled={props.readOnly}>
        <legend>Model per environment</legend>
        <p className="hint">
          Default is the agent&apos;s <code>model</code>; an environment&apos;s own model answers there in its place.
          None at all: <code>LLM_BASE_URL</code> when the server has one, else the embedded runtime.
        </p>
        {MODEL_SLOTS.map((slot) => (
          <ModelFields
            key={slot}
            slot={slot}
            draft={draft.models[slot]}
            onChange={(patch) => setModel(slot, patch)}
            problems={problems}
          />
        ))}
      </fieldset>
      <fieldset disabled={props.readOnly}>
        <legend>Retrieval</legend>
        <Field id="retrieval-mode" label="Retrieval mode" problem={problems['retrieval.mode']}>
          <select
            id="retrieval-mode"
            value={draft.retrieval_mode}
            onChange={(e) => set({ retrieval_mode: e.target.value })}
          >
            <option value="lexical">lexical (BM25)</option>
            <option value="hybrid">hybrid (also by embedding similarity)</option>
          </select>
        </Field>
        {draft.retrieval_mode === 'hybrid' && (
          <>
            <Field
              id="retrieval-endpoint"
              label="Embeddings endpoint (the operator's)"
              problem={problems['retrieval.endpoint']}
            >
              <input
                id="retrieval-endpoint"
                value={draft.retrieval_endpoint}
                onChange={(e) => set({ retrieval_endpoint: e.target.value })}
              />
            </Field>
            <Field id="retrieval-timeout" label="Timeout (ms, 50 to 10000)" problem={problems['retrieval.timeout_ms']}>
              <input
                id="retrieval-timeout"
                inputMode="numeric"
                value={draft.retrieval_timeout_ms}
                onChange={(e) => set({ retrieval_timeout_ms: e.target.value })}
              />
            </Field>
            <Field
              id="retrieval-similarity"
              label="Minimum similarity (0 to 1)"
              problem={problems['retrieval.min_similarity']}
            >
              <input
                id="retrieval-similarity"
                inputMode="decimal"
                value={draft.retrieval_min_similarity}
                onChange={(e) => set({ retrieval_min_similarity: e.target.value })}
              />
            </Field>
          </>
        )}
        {Object.keys(loaded.settings.environment_retrieval ?? {}).length > 0 && (
          <p className="hint">
            Per-environment retrieval is set ({Object.keys(loaded.settings.environment_retrieval ?? {}).join(', ')}) and
            kept as it is.
          </p>
        )}
      </fieldset>
      <fieldset disabled={props.readOnly}>
        <legend>Voice</legend>
        <label>
          <input type="checkbox" checked={draft.recording} onChange={(e) => set({ recording: e.target.checked })} />
          Record calls (both sides, kept the server&apos;s retention, served with the conversation to keys that may read
          its transcript)
        </label>
      </fieldset>
      {props.readOnly ? (
        <p className="hint">Main changes only by merging a branch: choose a branch, or a new one, to edit.</p>
      ) : (
        <div className="row">
          <button type="submit" disabled={action.busy || invalid || changes.length === 0}>
            Save settings
          </button>
          <span className="hint" data-testid="pending-changes">
            {invalid
              ? 'Fix the marked fields to save.'
              : changes.length === 0
                ? 'No changes.'
                : `${changes.length} change${changes.length > 1 ? 's' : ''}: ${changes.map((c) => c.field).join(', ')}`}
          </span>
        </div>
      )}
      <ErrorNote error={action.error} />
    </form>
  );
}

function ModelFields(props: {
  slot: ModelSlot;
  draft: ModelDraft;
  onChange: (patch: Partial<ModelDraft>) => void;
  problems: Record<string, string>;
}) {
  const { slot, draft } = props;
  const path = slot === 'default' ? 'model' : `environment_models.${slot}`;
  const name = slot === 'default' ? 'Default' : slot;
  const problem = Object.entries(props.problems).find(([field]) => field.startsWith(path))?.[1];
  const id = `model-${slot}`;
  return (
    <div className="model-slot" data-slot={slot}>
      <label>
        <input type="checkbox" checked={draft.set} onChange={(e) => props.onChange({ set: e.target.checked })} />
        {name} model
      </label>
      {draft.set && (
        <div className="row">
          <label htmlFor={`${id}-provider`}>Provider</label>
          <select
            id={`${id}-provider`}
            value={draft.provider}
            onChange={(e) => props.onChange({ provider: e.target.value })}
          >
            <option value="openai">openai</option>
            <option value="openai_compatible">openai_compatible</option>
            <option value="embedded">embedded</option>
          </select>
          <label>
            Model name
            <input id={`${id}-name`} value={draft.model} onChange={(e) => props.onChange({ model: e.target.value })} />
          </label>
          <label>
            Temperature
            <input
              inputMode="decimal"
              size={4}
              value={draft.temperature}
              onChange={(e) => props.onChange({ temperature: e.target.value })}
            />
          </label>
          <label>
            Max tokens
            <input
              inputMode="numeric"
              size={6}
              value={draft.max_tokens}
              onChange={(e) => props.onChange({ max_tokens: e.target.value })}
            />
          </label>
          <label>
            Endpoint
            <input value={draft.endpoint} onChange={(e) => props.onChange({ endpoint: e.target.value })} />
          </label>
        </div>
      )}
      {problem && (
        <p className="error" data-severity="error" data-field={path}>
          {problem}
        </p>
      )}
    </div>
  );
}

/** A labelled control with the API's refusal of its value under it, tied to it for screen readers. */
function Field(props: {
  id: string;
  label: string;
  problem?: string;
  children: ReactElement<InputHTMLAttributes<Element>>;
}) {
  const { id, label, problem, children } = props;
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      {cloneElement(children, {
        'aria-invalid': problem ? true : undefined,
        'aria-describedby': problem ? `${id}-problem` : undefined,
      })}
      {problem && (
        <p className="error" data-severity="error" id={`${id}-problem`}>
          {problem}
        </p>
      )}
    </div>
  );
}

function SavedChanges({ saved }: { saved: Saved }) {
  return (
    <div role="status" className="callout" data-testid="saved-changes">
      <p>
        Saved on branch <strong>{saved.branchName}</strong>: merge it for deployments to use it.
      </p>
      <ul>
        {saved.changes.map((c) => (
          <li key={c.field} data-field={c.field}>
            <code>{c.field}</code>: {show(c.before)} → {show(c.after)}
          </li>
        ))}
      </ul>
    </div>
  );
}

/** The greeting is the agent's, set when it is created: the API has no route to read or change it since. */
function Greeting() {
  return (
    <section aria-labelledby="greeting-title" className="panel">
      <h3 id="greeting-title">Greeting</h3>
      <p data-testid="greeting-note">
        The greeting is set when the agent is created (<code>responseSettings.greeting</code>). The API has no route to
        read or change it afterwards, so it cannot be edited here; Try it shows it as the first turn.
      </p>
    </section>
  );
}

const BUILT_IN_METRICS = ['CALL_IN_PROGRESS', 'CALL_COMPLETED', 'HANDOFF_REASON', 'HANDOFF_TO'];
const METRIC_NAMES = /^[\s,]*$|^[^,\s]+([\s,]+[^,\s]+)*[\s,]*$/;

/** Data access (contract §4): the project's, not versioned; a PUT replaces it at once for every deployment. */
function DataAccessSettings({ accountId, agentId }: { accountId: string; agentId: string }) {
  const { api } = useStudio();
  const current = useLoad(() => api.dataAccess(accountId, agentId), [api, accountId, agentId]);
  const [metrics, setMetrics] = useState('');
  const [transcripts, setTranscripts] = useState(false);
  const [saved, setSaved] = useState<Change[] | null>(null);
  const action = useAction();
  useEffect(() => {
    if (!current.data) return;
    setMetrics(current.data.response_metrics.join(', '));
    setTranscripts(current.data.show_transcripts);
  }, [current.data]);
  const names = [...new Set(metrics.split(/[\s,]+/).filter(Boolean))];
  const problem = METRIC_NAMES.test(metrics) ? null : 'metric names are separated by commas or spaces';

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!current.data) return;
    setSaved(null);
    const before = current.data;
    const done = await action.run(() =>
      api.setDataAccess(accountId, agentId, { response_metrics: names, show_transcripts: transcripts }),
    );
    if (!done) return;
    const changes: Change[] = [];
    if (before.response_metrics.join(',') !== done.response_metrics.join(','))
      changes.push({ field: 'response_metrics', before: before.response_metrics, after: done.response_metrics });
    if (before.show_transcripts !== done.show_transcripts)
      changes.push({ field: 'show_transcripts', before: before.show_transcripts, after: done.show_transcripts });
    setSaved(changes);
    current.reload();
  };

  return (
    <section aria-labelledby="data-access-title" className="panel">
      <h3 id="data-access-title">Data access</h3>
      <p className="hint">
        The project&apos;s, not a branch&apos;s: it applies at once to every conversation the Conversations API shows.
        Transcripts (and call recordings) need <strong>Show transcripts</strong>; keys also need{' '}
        <code>conversations</code>.
      </p>
      <ErrorNote error={current.error} />
      <form onSubmit={submit} aria-label="Data access" className="settings-form">
        <div className="field">
          <label htmlFor="response-metrics">
            Response metrics (built in: {BUILT_IN_METRICS.join(', ')}; or the agent&apos;s own)
          </label>
          <input id="response-metrics" value={metrics} onChange={(e) => setMetrics(e.target.value)} />
          {problem && (
            <p className="error" data-severity="error">
              {problem}
            </p>
          )}
        </div>
        <label>
          <input type="checkbox" checked={transcripts} onChange={(e) => setTranscripts(e.target.checked)} />
          Show transcripts
        </label>
        <div className="row">
          <button type="submit" disabled={action.busy || !current.data || !!problem}>
            Save data access
          </button>
        </div>
        <ErrorNote error={action.error} />
        {saved && (
          <div role="status" className="callout" data-testid="data-access-saved">
            <p>{saved.length ? 'Data access saved:' : 'Data access saved: nothing changed.'}</p>
            <ul>
              {saved.map((c) => (
                <li key={c.field}>
                  <code>{c.field}</code>: {show(c.before)} → {show(c.after)}
                </li>
              ))}
            </ul>
          </div>
        )}
      </form>
    </section>
  );
}
