import { useEffect, useReducer, useRef, useState, type FormEvent } from 'react';
import { loadHosts } from '../../api/config';
import { useStudio } from '../../api/context';
import { describeClose, openSocket } from '../../live/socket';
import { deskReducer, EMPTY_DESK, type HeldSession } from '../../live/desk-state';
import { shortTime } from '../../ui';
import './desk.css';

type Status = 'connecting' | 'connected' | { closed: string };

const WHO = { user: 'User', bot: 'Agent', live: 'You', info: '' } as const;

/**
 * The live-agent desk (`/studio/desk`): a person signed in with a `desk` key sees the handoff queue
 * as it changes (another desk's accept takes a session out of it), accepts, reads the history,
 * chats with typing shown both ways, and ends their part (LEAVE). Everything goes over /desk/ws.
 */
export function Desk() {
  const { session } = useStudio();
  const [state, dispatch] = useReducer(deskReducer, EMPTY_DESK);
  const [status, setStatus] = useState<Status>('connecting');
  const [active, setActive] = useState<string | null>(null);
  const [attempt, setAttempt] = useState(0);
  const socket = useRef<WebSocket | null>(null);

  useEffect(() => {
    let ws: WebSocket | null = null;
    let gone = false;
    setStatus('connecting');
    loadHosts().then((hosts) => {
      if (gone) return;
      ws = openSocket('/desk/ws', {}, session.secret, hosts, 'platform');
      socket.current = ws;
      ws.onopen = () => setStatus('connected');
      ws.onmessage = (m) => {
        try {
          dispatch(JSON.parse(String(m.data)) as Record<string, unknown>);
        } catch {
          // not a frame of the protocol: nothing to show
        }
      };
      ws.onclose = (e) => setStatus({ closed: describeClose(e.code) });
    });
    return () => {
      gone = true;
      ws?.close();
      socket.current = null;
    };
  }, [session.secret, attempt]);

  const send = (frame: Record<string, unknown>) => socket.current?.send(JSON.stringify(frame));
  const accept = (id: string) => {
    send({ type: 'ACCEPT', session_id: id });
    setActive(id);
  };
  // the newest accepted session opens by itself
  const shown = active && state.held[active] ? state.held[active] : null;

  return (
    <section aria-labelledby="desk-title" className="desk">
      <h1 id="desk-title">Desk</h1>
      <p role="status" className="hint" data-testid="desk-status">
        {status === 'connecting'
          ? 'Connecting…'
          : status === 'connected'
            ? state.ready
              ? `Connected as ${state.agentName}`
              : 'Connected'
            : `Disconnected: ${status.closed}`}{' '}
        {typeof status === 'object' && (
          <button type="button" onClick={() => setAttempt((n) => n + 1)}>
            Reconnect
          </button>
        )}
      </p>
      {state.errors.length > 0 && (
        <p className="error" role="alert">
          {state.errors[state.errors.length - 1]}
        </p>
      )}
      <div className="desk-grid">
        <div>
          <h2 id="queue-title">Waiting ({state.queue.length})</h2>
          <table aria-labelledby="queue-title" className="queue">
            <thead>
              <tr>
                <th scope="col">Since</th>
                <th scope="col">Queue</th>
                <th scope="col">Reason</th>
                <th scope="col">
                  <span className="sr-only">Accept</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {state.queue.map((q) => (
                <tr key={q.session_id} data-queued={q.session_id}>
                  <td>{shortTime(q.queued_at)}</td>
                  <td>{q.destination}</td>
                  <td>{q.reason}</td>
                  <td>
                    <button
                      type="button"
                      onClick={() => accept(q.session_id)}
                      aria-label={`Accept ${q.reason || q.session_id}`}
                    >
                      Accept
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          {state.queue.length === 0 && <p className="hint">No one is waiting.</p>}
          <h2 id="held-title">Yours ({state.order.length})</h2>
          <ul aria-labelledby="held-title" className="held">
            {state.order.map((id) => (
              <li key={id}>
                <button type="button" aria-pressed={id === active} onClick={() => setActive(id)}>
                  <code>{id.slice(0, 8)}</code> {state.held[id]?.ended ? '(ended)' : ''}
                </button>
              </li>
            ))}
          </ul>
        </div>
        {shown ? (
          <Conversation session={shown} send={send} />
        ) : (
          <p className="hint">Accept a conversation to answer it.</p>
        )}
      </div>
    </section>
  );
}

function Conversation({ session, send }: { session: HeldSession; send: (frame: Record<string, unknown>) => void }) {
  const [text, setText] = useState('');
  const typing = useRef(false);
  // the newest message is in view as it arrives (the list scrolls inside its own box)
  const lines = useRef<HTMLOListElement | null>(null);
  const count = session.lines.length;
  useEffect(() => {
    const list = lines.current;
    if (list && count > 0) list.scrollTop = list.scrollHeight;
  }, [count]);
  const setTyping = (state: boolean) => {
    if (typing.current === state) return;
    typing.current = state;
    send({ type: 'TYPING', session_id: session.id, state });
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const value = text.trim();
    if (!value) return;
    send({ type: 'MESSAGE', session_id: session.id, text: value });
    setText('');
    setTyping(false);
  };
  return (
    <div className="desk-chat" data-session={session.id}>
      <h2>
        Conversation <code>{session.id.slice(0, 8)}</code>
      </h2>
      <ol className="desk-lines" aria-live="polite" aria-label="Conversation with the user" ref={lines} tabIndex={0}>
        {session.lines.map((line) => (
          <li key={line.id} className={`desk-line ${line.who}`} data-who={line.who}>
            {line.who !== 'info' && <span className="who">{WHO[line.who]}</span>}
            {line.text}
          </li>
        ))}
      </ol>
      <p className="hint" aria-live="polite" data-testid="user-typing">
        {session.userTyping ? 'The user is typing…' : ''}
      </p>
      {session.ended ? (
        <p className="hint">This conversation is no longer yours.</p>
      ) : (
        <form onSubmit={submit} className="row" aria-label="Reply to the user">
          <label htmlFor="desk-reply" className="sr-only">
            Reply
          </label>
          <input
            id="desk-reply"
            className="grow"
            value={text}
            maxLength={4000}
            onChange={(e) => {
              setText(e.target.value);
              setTyping(e.target.value.length > 0);
            }}
          />
          <button type="submit">Send</button>
          <button type="button" onClick={() => send({ type: 'LEAVE', session_id: session.id })}>
            End
          </button>
        </form>
      )}
    </div>
  );
}
