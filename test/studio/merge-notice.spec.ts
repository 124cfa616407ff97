import type { Conversation } from '../../studio/src/api/types';
import { mergeNotice, type ListShape } from '../../studio/src/live/merge-notice';

const row = (id: string, extra: Partial<Conversation> = {}): Conversation => ({
  id,
  account_id: 'ws-a',
  project_id: 'PROJECT-p',
  environment: 'live',
  started_at: '2026-11-27T10:00:00.000Z',
  channel: 'CHAT',
  in_progress: true,
  num_turns: 1,
  total_duration: null,
  handoff: false,
  ...extra,
});
const LIST: ListShape = { client_env: 'live', channels: [], in_progress: '', ranked: false };

describe('mergeNotice', () => {
  it('updates a row on screen in place', () => {
    const rows = [row('a'), row('b')];
    const next = mergeNotice(rows, { type: 'CONVERSATION_UPDATED', conversation: row('b', { num_turns: 3 }) }, LIST);
    expect(next.map((c) => [c.id, c.num_turns])).toEqual([
      ['a', 1],
      ['b', 3],
    ]);
  });

  it('puts a new conversation on top when it fits the filters, and only then', () => {
    const rows = [row('a')];
    const started = (c: Conversation) => mergeNotice(rows, { type: 'CONVERSATION_STARTED', conversation: c }, LIST);
    expect(started(row('n')).map((c) => c.id)).toEqual(['n', 'a']);
    expect(started(row('n', { environment: 'sandbox' }))).toBe(rows);
    expect(mergeNotice(rows, { type: 'CONVERSATION_STARTED', conversation: row('n') }, { ...LIST, ranked: true })).toBe(
      rows,
    );
    expect(
      mergeNotice(
        rows,
        { type: 'CONVERSATION_STARTED', conversation: row('n') },
        { ...LIST, end: '2026-11-27T09:00:00.000Z' },
      ),
    ).toBe(rows);
    // an update of a conversation not loaded yet waits for the next load
    expect(mergeNotice(rows, { type: 'CONVERSATION_UPDATED', conversation: row('n') }, LIST)).toBe(rows);
  });
});
