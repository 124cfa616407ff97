import { deskReducer, EMPTY_DESK, type WireEvent } from '../../studio/src/live/desk-state';

const event = (
  id: string,
  type: string,
  payload: Record<string, unknown> = {},
  sequence: number | null = 1,
): WireEvent => ({
  id,
  type,
  timestamp: '2026-11-27T10:00:00Z',
  sequence,
  payload,
});

describe('deskReducer', () => {
  it('keeps the history first when the accept’s own events came on the feed before it', () => {
    let state = deskReducer(EMPTY_DESK, { type: 'DESK_READY', agent_name: 'Dana', sessions: [] });
    state = deskReducer(state, {
      type: 'SESSION_EVENT',
      session_id: 's1',
      event: event('j', 'EVENT_TYPE_LIVE_AGENT_JOINED', { agent_name: 'Dana' }),
    });
    state = deskReducer(state, {
      type: 'SESSION_ACCEPTED',
      session_id: 's1',
      history: [
        event('u', 'EVENT_TYPE_USER_MESSAGE', { text: 'human please' }),
        null,
        event('j', 'EVENT_TYPE_LIVE_AGENT_JOINED', { agent_name: 'Dana' }),
      ],
    });
    expect(state.held.s1.lines.map((l) => [l.who, l.text])).toEqual([
      ['user', 'human please'],
      ['info', 'Dana joined'],
    ]);
    expect(state.order).toEqual(['s1']);
  });

  it('shows the user typing until they send, and marks the session ended when it ends', () => {
    let state = deskReducer(EMPTY_DESK, { type: 'SESSION_ACCEPTED', session_id: 's1', history: [] });
    state = deskReducer(state, {
      type: 'SESSION_EVENT',
      session_id: 's1',
      event: event('t', 'EVENT_TYPE_USER_TYPING', { state: true }, null),
    });
    expect(state.held.s1.userTyping).toBe(true);
    state = deskReducer(state, {
      type: 'SESSION_EVENT',
      session_id: 's1',
      event: event('m', 'EVENT_TYPE_USER_MESSAGE', { text: 'hi' }),
    });
    expect(state.held.s1.userTyping).toBe(false);
    state = deskReducer(state, {
      type: 'SESSION_EVENT',
      session_id: 's1',
      event: event('e', 'EVENT_TYPE_SESSION_END', { reason: 'REASON_USER_END' }),
    });
    expect(state.held.s1.ended).toBe(true);
  });

  it('replaces the queue and keeps the last few errors', () => {
    const queue = [{ session_id: 's2', agent_id: 'a', destination: 'support', reason: 'r', queued_at: '' }];
    let state = deskReducer(EMPTY_DESK, { type: 'QUEUE_UPDATED', queue });
    expect(state.queue).toEqual(queue);
    for (let i = 0; i < 8; i++) state = deskReducer(state, { type: 'ERROR', message: `e${i}` });
    expect(state.errors).toEqual(['e3', 'e4', 'e5', 'e6', 'e7']);
  });
});
