import { sealingKeyOf } from './personal-fields';

describe('sealingKeyOf: the key that seals an event', () => {
  it("is the conversation's own, on the streams of one conversation", () => {
    expect(sealingKeyOf('conversation-WEBCHAT-1', { turnIndex: 1 })).toBe('WEBCHAT-1');
    expect(sealingKeyOf('sms-messages-SMS-1', { conversationId: 'SMS-2' })).toBe('SMS-1');
  });

  it("is that of the conversation a session's event names, on a channel's session streams", () => {
    expect(sealingKeyOf('sms-session-+15550001-+15559999', { conversationId: 'SMS-1', text: 'hi' })).toBe('SMS-1');
    expect(sealingKeyOf('sms-session-+15550001-+15559999', { conversationId: 'SMS-2', text: 'hi' })).toBe('SMS-2');
    expect(sealingKeyOf('messaging-session-s1', { conversationId: 'WEBCHAT-1', text: 'hi' })).toBe('WEBCHAT-1');
  });

  it('is none for a session event of no conversation, and for streams without personal data', () => {
    expect(sealingKeyOf('messaging-session-s1', { text: 'recorded before messages named it' })).toBeNull();
    expect(sealingKeyOf('messaging-session-s1', { conversationId: '' })).toBeNull();
    expect(sealingKeyOf('messaging-session-s1', { conversationId: 42 })).toBeNull();
    expect(sealingKeyOf('messaging-session-s1', null)).toBeNull();
    expect(sealingKeyOf('agent-A1', { conversationId: 'WEBCHAT-1' })).toBeNull();
    expect(sealingKeyOf('account-a1', {})).toBeNull();
  });
});
