import { SocketHub, type HubSocket } from './socket-hub';
import type { WireEvent } from './wire';

const event = (sequence: number | null, type = 'EVENT_TYPE_USER_MESSAGE'): WireEvent => ({
  id: `e${sequence}`,
  type,
  timestamp: 'T',
  sequence,
  payload: {},
  metadata: {},
});

function socket(sessionId = 's', lastSequence = 0): HubSocket & { sent: WireEvent[]; closed: number | null } {
  const s = {
    sessionId,
    lastSequence,
    ready: false,
    pending: [] as WireEvent[],
    sent: [] as WireEvent[],
    closed: null as number | null,
    send: (json: string) => s.sent.push(JSON.parse(json)),
    sendAll: (json: string[]) => json.forEach((j) => s.sent.push(JSON.parse(j))),
    close: (code: number) => (s.closed = code),
  };
  return s;
}

describe('socket hub', () => {
  it('counts reservations against the limit, and releases them', () => {
    const hub = new SocketHub();
    expect([1, 2, 3].map(() => hub.reserve('s', 2))).toEqual([true, true, false]);
    hub.release('s');
    expect(hub.reserve('s', 2)).toBe(true);
    hub.add(socket());
    expect(hub.count('s')).toBe(2);
  });

  it('a socket gets the replay, then only newer live events, each once, in order', () => {
    const hub = new SocketHub();
    const s = socket('s', 2);
    hub.reserve('s', 10);
    hub.add(s);
    // live events arrive while the history is read: they wait
    hub.deliverStored('s', [event(4), event(5)]);
    hub.deliverTransient('s', event(null, 'EVENT_TYPE_USER_TYPING'));
    expect(s.sent).toEqual([]);
    hub.finishReplay(s, event(null, 'EVENT_TYPE_EVENT_BATCH'), [event(3), event(4)]);
    expect(s.sent.map((e) => e.sequence ?? e.type)).toEqual(['EVENT_TYPE_EVENT_BATCH', 5, 'EVENT_TYPE_USER_TYPING']);
    hub.deliverStored('s', [event(5), event(6)]);
    expect(s.sent.map((e) => e.sequence ?? e.type).slice(3)).toEqual([6]);
  });

  it('closes a socket after sending it SESSION_END', () => {
    const hub = new SocketHub();
    const s = socket();
    hub.reserve('s', 10);
    hub.add(s);
    hub.finishReplay(s, event(null, 'EVENT_TYPE_EVENT_BATCH'), []);
    hub.deliverStored('s', [event(1, 'EVENT_TYPE_SESSION_END')]);
    expect(s.closed).toBe(1000);
  });
});
