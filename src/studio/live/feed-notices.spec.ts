import { feedNotices } from './feed-notices';

const e = (id: string, type: string) => ({ streamId: `conversation-${id}`, type });

describe('feedNotices', () => {
  it('gives one notice per conversation: ended over started over updated', () => {
    const notices = feedNotices([
      e('a', 'ConversationStarted'),
      e('a', 'TurnRecorded'),
      e('b', 'TurnRecorded'),
      e('b', 'StateChanged'),
      e('c', 'ConversationStarted'),
      e('c', 'ConversationEnded'),
      e('d', 'ConversationEnded'),
      e('d', 'MetricLogged'),
    ]);
    expect(Object.fromEntries(notices)).toEqual({
      a: 'CONVERSATION_STARTED',
      b: 'CONVERSATION_UPDATED',
      c: 'CONVERSATION_ENDED',
      d: 'CONVERSATION_ENDED',
    });
  });

  it('ignores other streams', () => {
    expect(feedNotices([{ streamId: 'account-x', type: 'ApiKeyCreated' }]).size).toBe(0);
  });
});
