import { useEffect, useState } from 'react';
import { useStudio } from '../api/context';
import type { Conversation } from '../api/types';
import { LearnFromTurn } from '../learning/LearnFromTurn';
import { CallPlayer, isCall } from '../player/CallPlayer';
import { ErrorNote, Json, Link, shortTime, useLoad } from '../ui';

/** What an erased turn's words read as (contract §24): nothing to learn from. */
const ERASED = '[erased]';

/** Post-call analysis (contract §24): pending until the conversation ends and the analyser has run. */
function Analysis({ c }: { c: Conversation }) {
  const a = c.analysis;
  if (!a && c.in_progress) return null;
  return (
    <>
      <h3>Analysis</h3>
      {a ? <AnalysisDetails a={a} /> : <p className="hint">Analysis pending.</p>}
    </>
  );
}

function AnalysisDetails({ a }: { a: NonNullable<Conversation['analysis']> }) {
  return (
    <dl className="turn-details" data-testid="analysis" aria-label="Analysis">
      <dt>Outcome</dt>
      <dd data-field="outcome">{a.outcome}</dd>
      <dt>Topics cited</dt>
      <dd data-field="topics">{a.topics.length ? a.topics.join(', ') : '(none)'}</dd>
      {a.summary !== undefined && (
        <>
          <dt>Summary</dt>
          <dd data-field="analysis-summary">{a.summary}</dd>
        </>
      )}
      {Object.keys(a.fields).length > 0 && (
        <>
          <dt>Fields</dt>
          <dd>
            <Json value={a.fields} label="Analysis fields" />
          </dd>
        </>
      )}
      <dt>Analyser</dt>
      <dd data-field="analyser">{a.analyser}</dd>
    </dl>
  );
}

/**
 * One conversation: transcript with turn latencies, state and metrics, its post-call analysis, and its stored event history.
 * The slider picks an event; the conversation is then shown as it was right after it (`as_of=<revision>`).
 */
export function ConversationView({ agentId, conversationId }: { agentId: string; conversationId: string }) {
  const { api, session } = useStudio();
  const accountId = session.accountId!;
  // "Should have been…" edits a branch: a key with `agents`
  const canLearn = session.permissions.includes('agents');
  const events = useLoad(
    () => api.conversationEvents(accountId, agentId, conversationId),
    [api, accountId, agentId, conversationId],
  );
  const last = events.data ? events.data.events.length - 1 : -1;
  const [revision, setRevision] = useState<number | null>(null);
  const at = revision ?? last;
  const [shown, setShown] = useState<{ conversation: Conversation | null; error: unknown; at: number | null }>({
    conversation: null,
    error: null,
    at: null,
  });

  useEffect(() => {
    if (!events.data && !events.error) return;
    let live = true;
    // the latest view is the conversation itself; an earlier one is folded from its first events
    const asOf = revision === null || revision === last ? undefined : revision;
    const timer = setTimeout(() => {
      api.conversation(accountId, agentId, conversationId, asOf).then(
        (conversation) => live && setShown({ conversation, error: null, at }),
        (error: unknown) => live && setShown({ conversation: null, error, at }),
      );
    }, 80);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [api, accountId, agentId, conversationId, revision, last, at, events.data, events.error]);

  const c = shown.conversation;
  const list = events.data?.events ?? [];
  return (
    <section aria-labelledby="conversation-title">
      <h2 id="conversation-title">
        Conversation <code>{conversationId}</code>
      </h2>
      <ErrorNote error={events.error ?? shown.error} />
      {list.length > 0 && (
        <div className="time-travel">
          <label htmlFor="as-of">
            As of event {at + 1} of {list.length}: <strong data-testid="as-of-type">{list[at]?.type}</strong> at{' '}
            {shortTime(list[at]?.occurred_at ?? '')}
          </label>
          <input
            id="as-of"
            type="range"
            min={0}
            max={last}
            step={1}
            value={at}
            onChange={(e) => setRevision(Number(e.target.value))}
            aria-valuetext={`event ${at + 1} of ${list.length}, ${list[at]?.type}`}
          />
        </div>
      )}
      <div className="split">
        <div>
          {c && (
            <>
              <p className="summary" data-testid="summary">
                {c.channel} · {c.environment} · {c.num_turns} turns · {c.in_progress ? 'in progress' : 'ended'} ·
                started {shortTime(c.started_at)}
              </p>
              {isCall(c) && <CallPlayer agentId={agentId} conversation={c} />}
              <ol className="chat" aria-label="Transcript">
                {(c.turns ?? []).map((t, i) => (
                  <li key={i} className="chat-turn" data-turn={i}>
                    {t.user_input && <p className="bubble user">{t.user_input}</p>}
                    {canLearn && t.user_input && t.user_input !== ERASED && (
                      <LearnFromTurn agentId={agentId} source={{ conversationId, turnIndex: i }} words={t.user_input} />
                    )}
                    {t.agent_response && <p className="bubble agent">{t.agent_response}</p>}
                    {t.latency && (
                      <p className="hint" data-field="latency">
                        {Math.round(t.latency.total_s * 1000)} ms
                        {Object.entries(t.latency.stages).map(([s, v]) => ` · ${s} ${Math.round(v * 1000)} ms`)}
                      </p>
                    )}
                  </li>
                ))}
              </ol>
              {/* hidden transcripts answer `turns: []` (or null) while the conversation has turns */}
              {(c.turns === null || (c.turns?.length === 0 && c.num_turns > 0)) && (
                <p className="callout" data-testid="transcript-hidden">
                  The transcript of this conversation ({c.num_turns} turns) is hidden by this agent&apos;s data access
                  settings.{' '}
                  {session.permissions.includes('keys') ? (
                    <>
                      <Link to={`/keys?agent=${encodeURIComponent(agentId)}`}>
                        Show transcripts on the data access page
                      </Link>{' '}
                      to read it.
                    </>
                  ) : (
                    'A key with the keys permission can turn transcripts on (Keys → Data access).'
                  )}
                </p>
              )}
              <Analysis c={c} />
              <h3>State</h3>
              <Json value={c.state ?? {}} label="State" />
              <h3>Metrics</h3>
              <Json value={c.metrics ?? {}} label="Metrics" />
            </>
          )}
        </div>
        <aside aria-label="Event history">
          <h3>Event history</h3>
          <ol className="events">
            {list.map((e) => (
              <li key={e.revision} className={e.revision === at ? 'current' : ''}>
                <button
                  type="button"
                  className="link"
                  onClick={() => setRevision(e.revision)}
                  aria-current={e.revision === at}
                >
                  {e.revision + 1}. {e.type}
                </button>{' '}
                <span className="hint">
                  {shortTime(e.occurred_at)} · {e.actor}
                </span>
              </li>
            ))}
          </ol>
        </aside>
      </div>
    </section>
  );
}
