import { storedRowOf, toRecordedEvent, toTailEvent, type EventRow } from './rows';

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
