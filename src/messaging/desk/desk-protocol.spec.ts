import { parseDeskFrame } from './desk-protocol';

describe('desk frames', () => {
  it('reads an accept and a message', () => {
    expect(parseDeskFrame('{"type":"ACCEPT","session_id":"s1"}')).toEqual({ type: 'ACCEPT', sessionId: 's1' });
    expect(parseDeskFrame('{"type":"MESSAGE","session_id":"s1","text":"hello"}')).toMatchObject({
      type: 'MESSAGE',
      sessionId: 's1',
      text: 'hello',
    });
  });

  it('refuses a frame nested deeper than the body limit, before parsing it', () => {
    const deep = `{"type":"MESSAGE","session_id":"s1","text":"x","extra":${'{"a":'.repeat(20_000)}1${'}'.repeat(20_000)}}`;
    expect(parseDeskFrame(deep)).toEqual({ error: 'frames may nest at most 64 levels' });
  });
});
