import { LazyStoredEvent, storedRowOf, toRecordedEvent, toTailEvent, type EventRow } from './rows';

const row: EventRow = {
  global_position: 7,
  stream_id: 'conversation-1',
  revision: 2,
  event_id: 'e-7',
  type: 'TurnRecorded',
  data: '{"turnIndex":2}',
  metadata: '{"correlationId":"c"}',
};

describe('stored rows of tail events', () => {
  it('a tail event carries the row it was parsed from; a plain read does not', () => {
    const event = toTailEvent(row);
    expect(storedRowOf(event)).toBe(row);
    expect(event).toEqual(toRecordedEvent(row));
    expect(storedRowOf(toRecordedEvent(row))).toBeUndefined();
  });

  it('a copy (an upcast) does not carry a row that no longer matches it, and the row stays out of JSON', () => {
    const event = toTailEvent(row);
    const upcast = { ...event, data: { turnIndex: 2, upcast: true } };
    expect(storedRowOf(upcast)).toBeUndefined();
    expect(Object.keys(event)).toEqual(['id', 'streamId', 'revision', 'position', 'type', 'data', 'metadata']);
    expect(JSON.stringify({ ...event, revision: String(event.revision) })).not.toContain('global_position');
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
