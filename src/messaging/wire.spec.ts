import type { RecordedEvent } from '../event-store/event-store.port';
import { positionOf } from '../event-store/position';
import { chunkText, toWire } from './wire';

const recorded = (type: string, data: Record<string, unknown>, revision: bigint): RecordedEvent =>
  ({
    id: `e${revision}`,
    streamId: 'messaging-session-s',
    revision,
    position: positionOf(revision + 1n),
    type,
    data,
    metadata: {} as never,
  }) as RecordedEvent;

describe('wire events', () => {
  it("numbers stored events by revision + 1 and echoes the user message's custom metadata", () => {
    const start = toWire(
      recorded('MessagingSessionStarted', { sessionId: 's', capabilities: { streaming: true }, at: 'T' }, 0n),
    );
    expect(start).toEqual({
      id: 'e0',
      type: 'EVENT_TYPE_SESSION_START',
      timestamp: 'T',
      sequence: 1,
      payload: { session_id: 's', capabilities: { streaming: true } },
      metadata: {},
    });
    const message = toWire(
      recorded('MessagingUserMessageReceived', { messageId: 'm', text: 'hi', custom: { a: 1 }, at: 'T' }, 4n),
    );
    expect(message).toMatchObject({
      type: 'EVENT_TYPE_USER_MESSAGE',
      sequence: 5,
      payload: { message_id: 'm', text: 'hi' },
      metadata: { custom: { a: 1 } },
    });
    expect(toWire(recorded('MessagingSessionEnded', { reason: 'REASON_NATURAL_END', at: 'T' }, 9n))).toMatchObject({
      type: 'EVENT_TYPE_SESSION_END',
      payload: { reason: 'REASON_NATURAL_END' },
    });
  });

  it.each([
    'Refunds are paid back to your card within 5 working days.',
    '  leading and trailing  ',
    'one',
    '',
    'a\nnew  line\tand tabs',
  ])('chunks reassemble exactly: %j', (text) => {
    const chunks = chunkText(text, 3);
    expect(chunks.join('')).toBe(text);
    expect(chunks.length).toBeGreaterThanOrEqual(1);
  });
});
