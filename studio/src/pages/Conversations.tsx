import { useCallback, useEffect, useRef, useState, type FormEvent } from 'react';
import { useStudio } from '../api/context';
import type { Query } from '../api/http';
import { ENVIRONMENTS, type Conversation } from '../api/types';
import { ErrorNote, Link, shortTime } from '../ui';
import { useConversationFeed, type FeedNotice } from '../live/conversation-feed';
import { mergeNotice } from '../live/merge-notice';

const CHANNELS = ['CHAT', 'WEBCHAT', 'VOICE-SIP', 'SMS'];
/** the environments listed, and `draft`: Try it's chats on a branch (contract §26), listed only when chosen */
const LISTED_ENVIRONMENTS: readonly string[] = [...ENVIRONMENTS, 'draft'];
/** a first screen of rows in one request (the bench measures the first 100 on screen) */
const PAGE = 100;

interface Filters {
  client_env: string;
  channels: string[];
  in_progress: '' | 'true' | 'false';
  start: string;
  end: string;
  query_type: '' | 'transcript' | 'semantic';
  query: string;
  turn_type: '' | 'user' | 'agent';
  sample: boolean;
}

const DEFAULTS: Filters = {
  client_env: 'live',
  channels: [],
  in_progress: '',
  start: '',
  end: '',
  query_type: '',
  query: '',
  turn_type: '',
  sample: false,
};

/** An ISO instant as a datetime-local value (this browser's time zone), or '' when it is not one. */
function localValue(iso: string | null): string {
  const ms = iso ? Date.parse(iso) : NaN;
  if (Number.isNaN(ms)) return '';
  return new Date(ms - new Date(ms).getTimezoneOffset() * 60_000).toISOString().slice(0, 16);
}

/** Filters a link can carry (`?client_env=live&end=<ISO>`): a view to share, or to open deep in a long history. */
function filtersFromUrl(): Filters {
  const q = new URLSearchParams(window.location.search);
  const env = q.get('client_env');
  return {
    ...DEFAULTS,
    client_env: env && LISTED_ENVIRONMENTS.includes(env) ? env : DEFAULTS.client_env,
    start: localValue(q.get('start')),
    end: localValue(q.get('end')),
  };
}

/** A datetime-local value as the API's ISO instant. */
const iso = (local: string) => (local ? new Date(local).toISOString() : undefined);

/**
 * The v3 listing with its filters. Search and sampling need a time range; without one given, the
 * last 30 days are asked for. More rows load as the end of the list scrolls into view (or by the
 * button), on the cursor the previous page returned.
 */
function toQuery(f: Filters): Query {
  const needsRange = f.query_type !== '' || f.sample;
  const start = iso(f.start) ?? (needsRange ? new Date(Date.now() - 30 * 86_400_000).toISOString() : undefined);
  const end = iso(f.end) ?? (needsRange ? new Date(Date.now() + 3_600_000).toISOString() : undefined);
  return {
    client_env: f.client_env,
    channel: f.channels,
    in_progress: f.in_progress || undefined,
    start_time: start,
    end_time: end,
    query_type: f.query_type && f.query.trim() ? f.query_type : undefined,
    query: f.query_type && f.query.trim() ? f.query.trim() : undefined,
    turn_type: f.query_type === 'transcript' && f.turn_type ? f.turn_type : undefined,
    sample: f.sample ? 'random' : undefined,
    limit: PAGE,
  };
}

export function Conversations({ agentId }: { agentId: string }) {
  const { api, session } = useStudio();
  const [draft, setDraft] = useState<Filters>(filtersFromUrl);
  const [filters, setFilters] = useState<Filters>(filtersFromUrl);
  const [rows, setRows] = useState<Conversation[]>([]);
  const [cursor, setCursor] = useState<string | null>(null);
  const [done, setDone] = useState(false);
  const [loading, setLoading] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const generation = useRef(0);
  const sentinel = useRef<HTMLDivElement | null>(null);
  // live: conversations that start or change while the list is open are merged in as they happen
  const onNotice = useCallback(
    (notice: FeedNotice) => {
      const q = toQuery(filters);
      const shape = {
        client_env: filters.client_env,
        channels: filters.channels,
        in_progress: filters.in_progress,
        start: q.start_time as string | undefined,
        end: q.end_time as string | undefined,
        ranked: Boolean(q.query_type) || filters.sample,
      };
      setRows((r) => mergeNotice(r, notice, shape));
    },
    [filters],
  );
  const live = useConversationFeed(session.secret, agentId, onNotice);

  const load = useCallback(
    async (from: string | null, reset: boolean) => {
      const mine = ++generation.current;
      setLoading(true);
      setError(null);
      try {
        const query = { ...toQuery(filters), cursor: from ?? undefined };
        const page = await api.conversations(session.accountId!, agentId, query);
        if (mine !== generation.current) return; // the filters changed meanwhile
        // a live notice may already have put one of the page's rows on screen
        setRows((r) => {
          if (reset) return page.conversations;
          const shown = new Set(r.map((c) => c.id));
          return [...r, ...page.conversations.filter((c) => !shown.has(c.id))];
        });
        setCursor(page.cursor);
        setDone(!page.cursor || page.conversations.length === 0 || filters.sample);
      } catch (e) {
        if (mine === generation.current) setError(e);
      } finally {
        if (mine === generation.current) setLoading(false);
      }
    },
    [api, session.accountId, agentId, filters],
  );

  useEffect(() => {
    setRows([]);
    setCursor(null);
    setDone(false);
    load(null, true);
  }, [load]);

  useEffect(() => {
    const target = sentinel.current;
    if (!target || done) return;
    const observer = new IntersectionObserver((entries) => {
      if (entries.some((e) => e.isIntersecting) && !loading && cursor) load(cursor, false);
    });
    observer.observe(target);
    return () => observer.disconnect();
  }, [load, cursor, done, loading]);

  const apply = (event: FormEvent) => {
    event.preventDefault();
    setFilters({ ...draft });
  };
  const set = <K extends keyof Filters>(key: K, value: Filters[K]) => setDraft((d) => ({ ...d, [key]: value }));

  return (
    <section aria-labelledby="conversations-title">
      <h2 id="conversations-title">Conversations</h2>
      <p className="hint" data-testid="live-status">
        {live === 'live' ? 'Live: new and changed conversations appear as they happen.' : live}
      </p>
      <form onSubmit={apply} className="filters" aria-label="Filter conversations">
        <label>
          Environment
          <select value={draft.client_env} onChange={(e) => set('client_env', e.target.value)}>
            {LISTED_ENVIRONMENTS.map((e) => (
              <option key={e}>{e}</option>
            ))}
          </select>
        </label>
        <fieldset>
          <legend>Channels</legend>
          {CHANNELS.map((c) => (
            <label key={c}>
              <input
                type="checkbox"
                checked={draft.channels.includes(c)}
                onChange={(e) =>
                  set('channels', e.target.checked ? [...draft.channels, c] : draft.channels.filter((x) => x !== c))
                }
              />{' '}
              {c}
            </label>
          ))}
        </fieldset>
        <label>
          In progress
          <select
            value={draft.in_progress}
            onChange={(e) => set('in_progress', e.target.value as Filters['in_progress'])}
          >
            <option value="">any</option>
            <option value="true">yes</option>
            <option value="false">no</option>
          </select>
        </label>
        <label>
          From <input type="datetime-local" value={draft.start} onChange={(e) => set('start', e.target.value)} />
        </label>
        <label>
          To <input type="datetime-local" value={draft.end} onChange={(e) => set('end', e.target.value)} />
        </label>
        <label>
          Search
          <select value={draft.query_type} onChange={(e) => set('query_type', e.target.value as Filters['query_type'])}>
            <option value="">none</option>
            <option value="transcript">transcript</option>
            <option value="semantic">semantic</option>
          </select>
        </label>
        <label>
          Words{' '}
          <input type="search" value={draft.query} onChange={(e) => set('query', e.target.value)} maxLength={500} />
        </label>
        <label>
          Side
          <select value={draft.turn_type} onChange={(e) => set('turn_type', e.target.value as Filters['turn_type'])}>
            <option value="">both</option>
            <option value="user">user</option>
            <option value="agent">agent</option>
          </select>
        </label>
        <label>
          <input type="checkbox" checked={draft.sample} onChange={(e) => set('sample', e.target.checked)} /> Random
          sample
        </label>
        <button type="submit">Apply</button>
      </form>
      <ErrorNote error={error} />
      <table className="conversations">
        <caption className="sr-only">Conversations, newest first</caption>
        <thead>
          <tr>
            <th scope="col">Conversation</th>
            <th scope="col">Started</th>
            <th scope="col">Channel</th>
            <th scope="col">Turns</th>
            <th scope="col">Duration</th>
            <th scope="col">Status</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((c) => (
            <tr key={c.id} data-conversation={c.id}>
              <td>
                <Link to={`/agents/${agentId}/conversations/${c.id}`}>
                  <code>{c.id}</code>
                </Link>
              </td>
              <td>{shortTime(c.started_at)}</td>
              <td>{c.channel}</td>
              <td>{c.num_turns}</td>
              <td>{c.total_duration === null || c.total_duration === undefined ? '' : `${c.total_duration} s`}</td>
              <td>
                {c.in_progress ? 'in progress' : 'ended'}
                {c.handoff ? ', handed off' : ''}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {done && !loading && rows.length === 0 && (
        <EmptyHint
          agentId={agentId}
          env={filters.client_env}
          onShow={(env) => {
            const next = { ...filters, client_env: env };
            setDraft(next);
            setFilters(next);
          }}
        />
      )}
      <div ref={sentinel} className="sentinel" />
      <p role="status" className="hint">
        {loading ? 'Loading…' : `${rows.length} shown${done ? '' : ', more below'}`}
      </p>
      {!done && !loading && cursor && (
        <button type="button" onClick={() => load(cursor, false)}>
          Load more
        </button>
      )}
    </section>
  );
}

/**
 * An empty list says why and what to do: the filter defaults to `live`, so a project whose conversations
 * are all in sandbox (made with Try it, before any promotion) points at them.
 */
function EmptyHint({ agentId, env, onShow }: { agentId: string; env: string; onShow: (env: string) => void }) {
  const { api, session } = useStudio();
  const [elsewhere, setElsewhere] = useState<string[] | null>(null);
  useEffect(() => {
    let live = true;
    const others = ENVIRONMENTS.filter((e) => e !== env);
    Promise.all(
      others.map((e) =>
        api.conversations(session.accountId!, agentId, { client_env: e, limit: 1 }).then(
          (page) => (page.conversations.length > 0 ? e : null),
          () => null,
        ),
      ),
    ).then((found) => live && setElsewhere(found.flatMap((e) => (e ? [e] : []))));
    return () => {
      live = false;
    };
  }, [api, session.accountId, agentId, env]);
  return (
    <div className="callout" data-testid="conversations-empty">
      <p>No {env} conversations match these filters.</p>
      {elsewhere && elsewhere.length > 0 ? (
        <p>
          This agent has conversations in {elsewhere.join(' and ')}.{' '}
          {elsewhere.map((e) => (
            <button key={e} type="button" onClick={() => onShow(e)}>
              Show {e} conversations
            </button>
          ))}
        </p>
      ) : (
        elsewhere && (
          <p>
            Conversations appear here once someone talks to a deployed agent: use{' '}
            <Link to={`/agents/${agentId}/try`}>Try it</Link> for a sandbox one.
          </p>
        )
      )}
    </div>
  );
}
