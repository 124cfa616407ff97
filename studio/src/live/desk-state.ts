/** The desk's wire (docs/api/messaging.md) as the page keeps it: a pure reducer over server frames. */

interface QueuedSession {
  session_id: string;
  agent_id: string;
  destination: string;
  reason: string;
  queued_at: string;
}

export interface WireEvent {
  id: string;
  type: string;
  timestamp: string;
  sequence: number | null;
  payload: Record<string, unknown>;
}

/** One line of a held session's transcript. */
interface Line {
  id: string;
  who: 'user' | 'bot' | 'live' | 'info';
  text: string;
}

export interface HeldSession {
  id: string;
  lines: Line[];
  userTyping: boolean;
  ended: boolean;
}

export interface DeskState {
  ready: boolean;
  agentName: string;
  queue: QueuedSession[];
  held: Record<string, HeldSession>;
  /** held session ids in the order they were taken */
  order: string[];
  errors: string[];
}

export const EMPTY_DESK: DeskState = { ready: false, agentName: '', queue: [], held: {}, order: [], errors: [] };

/** What an event adds to a transcript, if anything. */
function lineOf(event: WireEvent | null): Line | null {
  if (!event) return null;
  const p = event.payload ?? {};
  const text = typeof p.text === 'string' ? p.text : '';
  switch (event.type) {
    case 'EVENT_TYPE_USER_MESSAGE':
      return { id: event.id, who: 'user', text };
    case 'EVENT_TYPE_SERVICE_AGENT_MESSAGE':
      return { id: event.id, who: 'bot', text };
    case 'EVENT_TYPE_LIVE_AGENT_MESSAGE':
      return { id: event.id, who: 'live', text };
    case 'EVENT_TYPE_SERVICE_AGENT_TRIGGERED_HANDOFF':
      return { id: event.id, who: 'info', text: `handed off: ${String(p.reason ?? '')}` };
    case 'EVENT_TYPE_LIVE_AGENT_JOINED':
      return { id: event.id, who: 'info', text: `${String(p.agent_name ?? 'an agent')} joined` };
    case 'EVENT_TYPE_LIVE_AGENT_LEFT':
      return { id: event.id, who: 'info', text: `${String(p.agent_name ?? 'the agent')} left` };
    case 'EVENT_TYPE_SESSION_END':
      return { id: event.id, who: 'info', text: `conversation ended (${String(p.reason ?? '')})` };
    default:
      return null;
  }
}

const ENDS = new Set(['EVENT_TYPE_SESSION_END', 'EVENT_TYPE_LIVE_AGENT_LEFT']);

function append(session: HeldSession, event: WireEvent | null): HeldSession {
  if (!event) return session;
  if (event.type === 'EVENT_TYPE_USER_TYPING') return { ...session, userTyping: Boolean(event.payload?.state) };
  const line = lineOf(event);
  const ended = session.ended || ENDS.has(event.type);
  if (!line || session.lines.some((l) => l.id === line.id)) return { ...session, ended };
  // a message from the user ends their typing
  const userTyping = line.who === 'user' ? false : session.userTyping;
  return { ...session, lines: [...session.lines, line], userTyping, ended };
}

const fresh = (id: string): HeldSession => ({ id, lines: [], userTyping: false, ended: false });

/** Folds one server frame into the desk's state. */
export function deskReducer(state: DeskState, frame: Record<string, unknown>): DeskState {
  switch (frame.type) {
    case 'DESK_READY': {
      const sessions = (frame.sessions as string[]) ?? [];
      const held = { ...state.held };
      for (const id of sessions) held[id] ??= fresh(id);
      const order = [...state.order, ...sessions.filter((id) => !state.order.includes(id))];
      return { ...state, ready: true, agentName: String(frame.agent_name ?? ''), held, order };
    }
    case 'QUEUE_UPDATED':
      return { ...state, queue: (frame.queue as QueuedSession[]) ?? [] };
    case 'SESSION_ACCEPTED': {
      const id = String(frame.session_id);
      const history = (frame.history as Array<WireEvent | null>) ?? [];
      // the accept's own events may have come on the feed before its history: history first, then
      // whatever came that the history did not hold yet
      const before = state.held[id] ?? fresh(id);
      const told = history.reduce(append, { ...before, lines: [] });
      const seen = new Set(told.lines.map((l) => l.id));
      const session = { ...told, lines: [...told.lines, ...before.lines.filter((l) => !seen.has(l.id))] };
      const order = state.order.includes(id) ? state.order : [...state.order, id];
      return { ...state, held: { ...state.held, [id]: { ...session, ended: false } }, order };
    }
    case 'SESSION_EVENT': {
      const id = String(frame.session_id);
      const session = state.held[id] ?? fresh(id);
      const order = state.order.includes(id) ? state.order : [...state.order, id];
      return { ...state, held: { ...state.held, [id]: append(session, frame.event as WireEvent) }, order };
    }
    case 'ERROR':
      return { ...state, errors: [...state.errors.slice(-4), String(frame.message ?? 'error')] };
    default:
      return state;
  }
}
