import type { RecordedEvent } from '../../event-store/event-store.port';
import { storedRowOf, toRecordedEvent, type EventRow } from '../../event-store/sqlite/rows';

/** An event on its way to another thread: the SQLite row it was read from when there is one. */
export type PortableEvent = { row: EventRow } | { event: RecordedEvent };

/**
 * Strings cross threads at memcpy speed while a structured clone of a parsed event costs the
 * sending thread more than parsing it did: the SQLite store's events travel as their rows and are
 * parsed by the receiver. Events of other stores travel as they are.
 */
export function toPortable(event: RecordedEvent): PortableEvent {
  const row = storedRowOf(event);
  return row ? { row } : { event };
}

export function fromPortable(portable: PortableEvent): RecordedEvent {
  return 'row' in portable ? toRecordedEvent(portable.row) : portable.event;
}
