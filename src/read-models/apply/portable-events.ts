import type { RecordedEvent } from '../../event-store/event-store.port';
import {
  postgresRowOf,
  toRecordedEvent as fromPostgresRow,
  type EventRow as PostgresEventRow,
} from '../../event-store/postgres/rows';
import { storedRowOf, toRecordedEvent, type EventRow } from '../../event-store/sqlite/rows';

/** An event on its way to another thread: the row it was read from when there is one. */
export type PortableEvent = { row: EventRow } | { postgresRow: PostgresEventRow } | { event: RecordedEvent };

/**
 * Strings cross threads at memcpy speed while a structured clone of a parsed event costs the
 * sending thread more than parsing it did: the SQLite and PostgreSQL stores' subscription events
 * travel as their rows and are parsed by the receiver. Events of other stores travel as they are.
 */
export function toPortable(event: RecordedEvent): PortableEvent {
  const row = storedRowOf(event);
  if (row) return { row };
  const postgresRow = postgresRowOf(event);
  return postgresRow ? { postgresRow } : { event };
}

export function fromPortable(portable: PortableEvent): RecordedEvent {
  if ('row' in portable) return toRecordedEvent(portable.row);
  return 'postgresRow' in portable ? fromPostgresRow(portable.postgresRow) : portable.event;
}
