import { useState, type FormEvent } from 'react';
import { useStudio } from '../api/context';
import { ENVIRONMENTS, type DebugTurn, type Environment } from '../api/types';
import { LearnFromTurn } from '../learning/LearnFromTurn';
import { ErrorNote, Json, Link, useAction } from '../ui';

interface TurnShown {
  turn: DebugTurn;
  /** What the request took, as this browser measured it. */
  roundTripMs: number;
  /** The runtime's own stages, when the key can read the conversation (include_latency). */
  stages: Record<string, number> | null;
}

/** Debug chat against an environment's active deployment, with what the runtime did on each turn. */
export function TryIt({ agentId }: { agentId: string }) {
  const { api, session } = useStudio();
  const [env, setEnv] = useState<Environment>('sandbox');
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
    const shown = await action.run(() => timed(() => api.startChat(agentId, env), 0));
    if (shown) {
      setConversationId(shown.turn.conversationId);
      setTurns([shown]);
      setEnded(shown.turn.conversationEnded);
    }
  };
  const send = async (event: FormEvent) => {
    event.preventDefault();
    if (!conversationId || !text.trim()) return;
    const message = text;
    const shown = await action.run(() =>
      timed(() => api.chatTurn(agentId, conversationId, env, message), turns.length),
    );
    if (shown) {
      setText('');
      setTurns((t) => [...t, shown]);
      setEnded(shown.turn.conversationEnded);
    }
  };

  return (
    <div className="try-it">
      <div className="row">
        <label>
          Environment
          <select
            value={env}
            onChange={(e) => setEnv(e.target.value as Environment)}
            disabled={!!conversationId && !ended}
          >
            {ENVIRONMENTS.map((e) => (
              <option key={e}>{e}</option>
            ))}
          </select>
        </label>
        <button type="button" onClick={start} disabled={action.busy}>
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
            <TurnDetails shown={t} />
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

function TurnDetails({ shown }: { shown: TurnShown }) {
  const m = shown.turn.metadata;
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
      <dd>
        <Json value={m.state} label="State" />
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
