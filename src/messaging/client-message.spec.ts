import { SYSTEM_MESSAGES } from './system-messages';
import { parseClientMessage } from './client-message';

describe('client frames', () => {
  it('reads the five kinds, keeping metadata.custom', () => {
    expect(
      parseClientMessage('{"type":"EVENT_TYPE_USER_MESSAGE","payload":{"text":"hi"},"metadata":{"custom":{"a":1}}}'),
    ).toEqual({ kind: 'EVENT_TYPE_USER_MESSAGE', text: 'hi', custom: { a: 1 } });
    expect(parseClientMessage('{"type":"EVENT_TYPE_REQUEST_SERVICE_AGENT_JOIN"}')).toEqual({
      kind: 'EVENT_TYPE_REQUEST_SERVICE_AGENT_JOIN',
    });
    expect(parseClientMessage('{"type":"EVENT_TYPE_USER_TYPING","payload":{"state":false}}')).toEqual({
      kind: 'EVENT_TYPE_USER_TYPING',
      state: false,
    });
    expect(parseClientMessage('{"type":"EVENT_TYPE_USER_END_SESSION","payload":null}')).toEqual({
      kind: 'EVENT_TYPE_USER_END_SESSION',
    });
    expect(parseClientMessage('{"type":"EVENT_TYPE_HEARTBEAT","payload":{"t":1}}')).toEqual({
      kind: 'EVENT_TYPE_HEARTBEAT',
      payload: { t: 1 },
    });
  });

  it.each([
    ['not json'],
    ['[]'],
    ['null'],
    ['{"type":7}'],
    ['{"type":"EVENT_TYPE_NOPE"}'],
    ['{"type":"EVENT_TYPE_HEARTBEAT","payload":[1]}'],
    ['{"type":"EVENT_TYPE_HEARTBEAT","metadata":"x"}'],
  ])('invalid format: %s', (raw) => {
    expect(parseClientMessage(raw)).toMatchObject({ error: 'Unknown event type or invalid message format' });
  });

  it('server-only kinds are not allowed, by name; the custom metadata comes back', () => {
    expect(parseClientMessage('{"type":"EVENT_TYPE_SESSION_END","metadata":{"custom":"c"}}')).toEqual({
      error: 'Event type not allowed: EVENT_TYPE_SESSION_END',
      custom: 'c',
    });
  });

  it('a known kind without what it needs is invalid data', () => {
    expect(parseClientMessage('{"type":"EVENT_TYPE_USER_MESSAGE","payload":{"text":"   "}}')).toEqual({
      error: 'encountered an error',
    });
    expect(parseClientMessage('{"type":"EVENT_TYPE_USER_TYPING","payload":{}}')).toEqual({
      error: 'encountered an error',
    });
  });

  it('a frame nested deeper than the body limit is refused before it is parsed', () => {
    const deep = (n: number) =>
      `{"type":"EVENT_TYPE_USER_MESSAGE","payload":{"text":"hi"},"metadata":{"custom":${'['.repeat(n)}${']'.repeat(n)}}}`;
    expect(parseClientMessage(deep(60))).toMatchObject({ kind: 'EVENT_TYPE_USER_MESSAGE' });
    expect(parseClientMessage(deep(20_000))).toEqual({ error: SYSTEM_MESSAGES.invalidFormat });
  });
});
