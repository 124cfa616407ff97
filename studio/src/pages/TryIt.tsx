import { useState, type FormEvent } from 'react';
import { useStudio } from '../api/context';
import { ENVIRONMENTS, type ChatTarget, type DebugTurn, type Environment } from '../api/types';
import { describeDiff } from '../diff';
import { LearnFromTurn } from '../learning/LearnFromTurn';
import { navigate, useRoute } from '../router';
import { ErrorNote, Json, Link, useAction, useLoad } from '../ui';
import { branchDiff } from './BranchChanges';

interface TurnShown {
  turn: DebugTurn;
  /** What the request took, as this browser measured it. */
  roundTripMs: number;
  /** The runtime's own stages, when the key can read the conversation (include_latency). */
  stages: Record<string, number> | null;
}

const plural = (n: number, one: string) => `${n} ${one}${n === 1 ? '' : 's'}`;

/**
 * Debug chat against an environment's active deployment, or, on a branch (`?branch=`), against the
 * branch's draft as it is now (contract §26), with what the runtime did on each turn.
 */
export function TryIt({ agentId }: { agentId: string }) {
  const { api, session } = useStudio();
  const { query } = useRoute();
  const branchId = query.get('branch');
  const [env, setEnv] = useState<Environment>('sandbox');
  // on a branch, Try it talks to its draft unless switched to a deployed environment
  const [deployed, setDeployed] = useState(false);
  const branches = useLoad(() => api.branches(agentId), [api, agentId]);
  const open = branches.data?.branches.filter((b) => b.branchId !== 'main' && b.status === 'open') ?? [];
  const branch = branchId ? open.find((b) => b.branchId === branchId) : undefined;
  const diff = useLoad(
    async () => (branch ? branchDiff(api, agentId, branch.branchId, branch.sequenceId) : null),
    [api, agentId, branch?.branchId, branch?.sequenceId],
  );
  const draft = !!branch && !deployed;
  const target: ChatTarget = draft && branch ? { branchId: branch.branchId } : { clientEnv: env };
  const [talkingTo, setTalkingTo] = useState<ChatTarget | null>(null);
  const [conversationId, setConversationId] = useState<string | null>(null);
  const [turns, setTurns] = useState<TurnShown[]>([]);
  const [ended, setEnded] = useState(false);
  const [text, setText] = useState('');
  const action = useAction();

  const timed = async (call: () => Promise<DebugTurn>, index: number): Promise<TurnShown> => {
    const started = performance.now();
    const turn = await call();
    const roundTripMs = Math.round(performance.now() - started);
    let stages: Record<string, number> | null;
    try {
      const conversation = await api.conversation(session.accountId!, agentId, turn.conversationId);
      stages = conversation.turns?.[index]?.latency?.stages ?? null;
    } catch {
      stages = null; // no `conversations` permission or transcripts hidden: the round trip is still shown
    }
    return { turn, roundTripMs, stages };
  };

  const start = async () => {
    const shown = await action.run(() => timed(() => api.startChat(agentId, target), 0));
    if (shown) {
      setTalkingTo(target);
      setConversationId(shown.turn.conversationId);
      setTurns([shown]);
      setEnded(shown.turn.conversationEnded);
    }
  };
  const send = async (event: FormEvent) => {
    event.preventDefault();
    if (!conversationId || !talkingTo || !text.trim()) return;
    const message = text;
    const shown = await action.run(() =>
      timed(() => api.chatTurn(agentId, conversationId, talkingTo, message), turns.length),
    );
    if (shown) {
      setText('');
      setTurns((t) => [...t, shown]);
      setEnded(shown.turn.conversationEnded);
    }
  };

  // a conversation keeps talking to what it started with; changing the target starts over
  const locked = !!conversationId && !ended;
  return (
    <div className="try-it">
      {branchId && (
        <div className="draft-target" data-testid="draft-target">
          {branch ? (
            <>
              <p role="status" data-testid="draft-hint">
                {draft ? (
                  <>
                    Talking to the draft of <strong>{branch.branchName}</strong> as it is now, before any merge:{' '}
                  </>
                ) : (
                  <>
                    On <strong>{branch.branchName}</strong>, talking to a deployed environment instead of its draft; for
                    reference,{' '}
                  </>
                )}
                {diff.data ? describeDiff(diff.data) : 'reading what it changes…'} against main as the branch was cut
                (sequence {branch.sequenceId}).
              </p>
              <ErrorNote error={diff.error} />
              <label className="switch">
                <input
                  type="checkbox"
                  role="switch"
                  checked={deployed}
                  onChange={(e) => {
                    // another target is another conversation: the one on screen is left as it was
                    setDeployed(e.target.checked);
                    setConversationId(null);
                    setTurns([]);
                    setEnded(false);
                  }}
                />
                Talk to a deployed environment instead
              </label>
            </>
          ) : (
            branches.data && (
              <p role="status" data-testid="draft-hint">
                <code>{branchId}</code> is not an open branch (merged, deleted or unknown): talking to a deployed
                environment. <Link to={`/agents/${agentId}/try`}>Forget the branch</Link>
              </p>
            )
          )}
        </div>
      )}
      <div className="row">
        {!draft && (
          <label>
            Environment
            <select value={env} onChange={(e) => setEnv(e.target.value as Environment)} disabled={locked}>
              {ENVIRONMENTS.map((e) => (
                <option key={e}>{e}</option>
              ))}
            </select>
          </label>
        )}
        {!branchId && open.length > 0 && (
          <label>
            Or a branch&apos;s draft
            <select
              value=""
              onChange={(e) => e.target.value && navigate(`/agents/${agentId}/try?branch=${e.target.value}`)}
              disabled={locked}
            >
              <option value="">(choose a branch)</option>
              {open.map((b) => (
                <option key={b.branchId} value={b.branchId}>
                  {b.branchName}
                </option>
              ))}
            </select>
          </label>
        )}
        <button type="button" onClick={start} disabled={action.busy || (!!branchId && !branches.data)}>
          {conversationId ? 'Start over' : 'Start a conversation'}
        </button>
        {conversationId && (
          <Link to={`/agents/${agentId}/conversations/${conversationId}`}>
            Open <code>{conversationId}</code>
          </Link>
        )}
      </div>
      <ErrorNote error={action.error} />
      <ol className="chat" aria-live="polite" aria-label="Debug chat">
        {turns.map((t, i) => (
          <li key={i} className="chat-turn" data-turn={i}>
            {t.turn.userInput && <p className="bubble user">{t.turn.userInput}</p>}
            {t.turn.userInput && conversationId && (
              <LearnFromTurn agentId={agentId} source={{ conversationId, turnIndex: i }} words={t.turn.userInput} />
            )}
            <p className="bubble agent">{t.turn.response}</p>
            <TurnDetails shown={t} before={i > 0 ? turns[i - 1].turn.metadata.state : null} />
          </li>
        ))}
      </ol>
      {ended && <p role="status">The agent ended this conversation.</p>}
      {conversationId && !ended && (
        <form onSubmit={send} className="row" aria-label="Send a message">
          <label htmlFor="try-message" className="sr-only">
            Message
          </label>
          <input
            id="try-message"
            className="grow"
            value={text}
            onChange={(e) => setText(e.target.value)}
            placeholder="Type as a user would"
            autoComplete="off"
          />
          <button type="submit" disabled={action.busy}>
            Send
          </button>
        </form>
      )}
    </div>
  );
}

/** The keys a turn set, changed or removed in the conversation's state. */
function changedKeys(before: Record<string, unknown> | null, after: Record<string, unknown>): string[] {
  if (!before) return [];
  const keys = new Set([...Object.keys(before), ...Object.keys(after)]);
  return [...keys].filter((k) => JSON.stringify(before[k]) !== JSON.stringify(after[k])).sort();
}

function TurnDetails({ shown, before }: { shown: TurnShown; before: Record<string, unknown> | null }) {
  const m = shown.turn.metadata;
  const changed = changedKeys(before, m.state);
  return (
    <dl className="turn-details">
      <dt>Cited topic</dt>
      <dd data-field="cited">{m.citedTopic || '(none)'}</dd>
      <dt>Retrieved topics</dt>
      <dd data-field="retrieved">{m.retrievedTopics.length ? m.retrievedTopics.join(', ') : '(none)'}</dd>
      <dt>Actions</dt>
      <dd data-field="actions">
        {m.functionEvents.length === 0 && !m.handoffDestination && Object.keys(m.metrics).length === 0 && '(none)'}
        {m.handoffDestination && <span>handoff to {m.handoffDestination}; </span>}
        {Object.entries(m.metrics).map(([k, v]) => (
          <span key={k}>
            log_metric {k}={String(v)};{' '}
          </span>
        ))}
        {m.functionEvents.length > 0 && <Json value={m.functionEvents} label="Function events" />}
      </dd>
      <dt>State</dt>
      <dd data-field="state">
        {/* collapsed: the whole state under every turn buried the chat; a turn says what it changed */}
        <details>
          <summary>
            {before === null
              ? `${plural(Object.keys(m.state).length, 'key')}`
              : changed.length
                ? `changed: ${changed.join(', ')}`
                : 'unchanged'}
          </summary>
          <Json value={m.state} label="State" />
        </details>
      </dd>
      <dt>Latency</dt>
      <dd data-field="latency">
        {shown.roundTripMs} ms round trip
        {shown.stages &&
          Object.entries(shown.stages).map(([stage, s]) => (
            <span key={stage}>
              ; {stage} {Math.round(s * 1000)} ms
            </span>
          ))}
      </dd>
      <dt>Raw metadata</dt>
      <dd>
        <details>
          <summary>Show</summary>
          <Json value={shown.turn} label="Raw turn" />
        </details>
      </dd>
    </dl>
  );
}
