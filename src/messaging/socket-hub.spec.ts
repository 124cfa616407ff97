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

  describe('a streamed answer', () => {
    const chunk = (messageId: string, i: number): WireEvent => ({
      ...event(null, 'EVENT_TYPE_SERVICE_AGENT_MESSAGE_CHUNK'),
      id: `c${i}`,
      payload: { message_id: messageId, text: `part${i}`, chunk_index: i },
    });
    const answer = (sequence: number, messageId: string): WireEvent => ({
      ...event(sequence, 'EVENT_TYPE_SERVICE_AGENT_MESSAGE'),
      payload: { message_id: messageId, text: 'part0part1' },
    });
    const ready = (hub: SocketHub, s: ReturnType<typeof socket>) => {
      hub.reserve(s.sessionId, 10);
      hub.add(s);
      hub.finishReplay(s, event(null, 'EVENT_TYPE_EVENT_BATCH'), []);
      s.sent.length = 0;
    };
    const shown = (s: ReturnType<typeof socket>) => s.sent.map((e) => e.sequence ?? e.id);

    it('goes out after the user message that caused it, though its chunks were made first', () => {
      const hub = new SocketHub();
      const s = socket();
      ready(hub, s);
      hub.deliverTransient('s', chunk('m1', 0));
      hub.deliverTransient('s', chunk('m1', 1));
      expect(s.sent).toEqual([]);
      hub.deliverStored('s', [event(1), answer(2, 'm1')]);
      expect(shown(s)).toEqual([1, 'c0', 'c1', 2]);
      // other transients are not held
      hub.deliverTransient('s', event(null, 'EVENT_TYPE_SERVICE_AGENT_THINKING'));
      expect(s.sent.at(-1)?.type).toBe('EVENT_TYPE_SERVICE_AGENT_THINKING');
    });

    it('is not sent again in pieces to a socket that already has the answer, nor to one replaying', () => {
      const hub = new SocketHub();
      const seen = socket('s', 2);
      const replaying = socket('s');
      ready(hub, seen);
      hub.reserve('s', 10);
      hub.add(replaying);
      hub.deliverTransient('s', chunk('m1', 0));
      hub.deliverStored('s', [event(1), answer(2, 'm1')]);
      expect(seen.sent).toEqual([]);
      expect(replaying.pending.map((e) => e.sequence)).toEqual([1, 2]);
    });

    it('drops the chunks of an answer that is never stored', () => {
      jest.useFakeTimers();
      try {
        const hub = new SocketHub();
        const s = socket();
        ready(hub, s);
        hub.deliverTransient('s', chunk('lost', 0));
        jest.advanceTimersByTime(31_000);
        hub.deliverStored('s', [event(1), answer(2, 'lost')]);
        expect(shown(s)).toEqual([1, 2]);
      } finally {
        jest.useRealTimers();
      }
    });
  });
});
