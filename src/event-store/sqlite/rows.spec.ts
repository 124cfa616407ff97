import { LazyStoredEvent, storedRowOf, toRecordedEvent, type EventRow } from './rows';

const row: EventRow = {
  global_position: 7,
  stream_id: 'conversation-1',
  revision: 2,
  event_id: 'e-7',
  type: 'TurnRecorded',
  data: '{"turnIndex":2}',
  metadata: '{"correlationId":"c"}',
};

describe('stored rows', () => {
  it('an event read by a subscription carries the row it came from; a plain read and a copy do not', () => {
    const event = new LazyStoredEvent(row);
    expect(storedRowOf(event)).toBe(row);
    expect(storedRowOf(toRecordedEvent(row))).toBeUndefined();
    // an upcast's copy holds other data: it must not travel as the row
    const upcast = { ...event, data: { turnIndex: 2, upcast: true }, metadata: event.metadata };
    expect(storedRowOf(upcast)).toBeUndefined();
    expect(JSON.stringify({ ...event.toJSON(), revision: String(event.revision) })).not.toContain('global_position');
  });
});

describe('events parsed when first read', () => {
  it('read as the eager event reads, the same data object each time, and carry their row', () => {
    const event = new LazyStoredEvent(row);
    const eager = toRecordedEvent(row);
    for (const key of ['id', 'streamId', 'revision', 'position', 'type', 'data', 'metadata'] as const)
      expect(event[key]).toEqual(eager[key]);
    expect(event.data).toBe(event.data);
    expect(storedRowOf(event)).toBe(row);
    // JSON and a copy that names its fields see everything
    expect(JSON.parse(JSON.stringify({ ...event.toJSON(), revision: 2 }))).toEqual({ ...eager, revision: 2 });
    expect({ ...event, data: event.data, metadata: event.metadata }).toEqual(eager);
  });

  it('a row that does not parse fails where its data is read, not where it is read from the log', () => {
    const event = new LazyStoredEvent({ ...row, data: '{"turnIndex":' });
    expect(event.type).toBe('TurnRecorded');
    expect(event.metadata).toEqual({ correlationId: 'c' });
    expect(() => event.data).toThrow(SyntaxError);
  });
});
