import type { EventMetadata, RecordedEvent } from '../event-store.port';
import { commitOf, positionOf, prepareOf, type Position } from '../position';

/** A row of parley_events as the reads select it: bigints and xid8 as decimal text. */
export interface EventRow {
  transaction_id: string;
  global_position: string;
  stream_id: string;
  revision: string;
  event_id: string;
  type: string;
  data: string;
  metadata: string;
}

/** The columns EventRow names, of the table (or subquery) called `alias`, for the reads' SELECT lists. */
export function eventColumns(alias: string): string {
  return [
    `${alias}.transaction_id::text AS transaction_id`,
    `${alias}.global_position::text AS global_position`,
    `${alias}.stream_id`,
    `${alias}.revision::text AS revision`,
    ...['event_id', 'type', 'data', 'metadata'].map((column) => `${alias}.${column}`),
  ].join(', ');
}

/**
 * The writer's transaction id, then its place within the transaction: the order the log is read in.
 * A checkpoint must hold the transaction id: global_position is taken at insert, and transactions
 * commit in another order (T1 takes 10, T2 takes 11 and commits first), so a reader keeping only
 * the global_position would move past 10 before it commits. In (transaction_id, global_position)
 * order, whatever becomes visible after a read sorts after everything it read (log-reader.ts).
 */
export function postgresPosition(transactionId: string | bigint, globalPosition: string | bigint): Position {
  return positionOf(BigInt(transactionId), BigInt(globalPosition));
}

/** A position as the reads' parameters: ($1::xid8, $2::bigint). */
export function positionParams(position: Position): [string, string] {
  return [commitOf(position).toString(), prepareOf(position).toString()];
}

export function toRecordedEvent(row: EventRow): RecordedEvent {
  return {
    id: row.event_id,
    streamId: row.stream_id,
    revision: BigInt(row.revision),
    position: postgresPosition(row.transaction_id, row.global_position),
    type: row.type,
    data: JSON.parse(row.data),
    metadata: JSON.parse(row.metadata) as EventMetadata,
  };
}

const UNPARSED = Symbol('unparsed');

/**
 * A row a subscription read, its data and metadata parsed when first read: the PostgreSQL twin of
 * the SQLite store's LazyStoredEvent (sqlite/rows.ts), for the same readers. The log feed hands
 * batches on unread, and the read-model apply thread is sent the row's strings (postgresRowOf,
 * read-models/apply/portable-events.ts) and parses them there, instead of a structured clone of a
 * parsed event, which cost the event loop more than parsing did. Getters, not own properties: a
 * copy names `data` and `metadata` (as an upcast does); JSON.stringify goes through toJSON.
 */
class LazyPostgresEvent implements RecordedEvent {
  readonly id: string;
  readonly streamId: string;
  readonly revision: bigint;
  readonly position: Position;
  readonly type: string;
  readonly #row: EventRow;
  #data: unknown = UNPARSED;
  #metadata: EventMetadata | typeof UNPARSED = UNPARSED;

  constructor(row: EventRow) {
    this.id = row.event_id;
    this.streamId = row.stream_id;
    this.revision = BigInt(row.revision);
    this.position = postgresPosition(row.transaction_id, row.global_position);
    this.type = row.type;
    this.#row = row;
  }

  static rowOf(event: LazyPostgresEvent): EventRow {
    return event.#row;
  }

  get data(): unknown {
    if (this.#data === UNPARSED) this.#data = JSON.parse(this.#row.data);
    return this.#data;
  }

  get metadata(): EventMetadata {
    if (this.#metadata === UNPARSED) this.#metadata = JSON.parse(this.#row.metadata) as EventMetadata;
    return this.#metadata;
  }

  toJSON(): RecordedEvent {
    const { id, streamId, revision, position, type, data, metadata } = this;
    return { id, streamId, revision, position, type, data, metadata };
  }
}

export const toLazyEvent = (row: EventRow): RecordedEvent => new LazyPostgresEvent(row);

/** The row a subscription read an event from, when it was (a LazyPostgresEvent). */
export function postgresRowOf(event: RecordedEvent): EventRow | undefined {
  return event instanceof LazyPostgresEvent ? LazyPostgresEvent.rowOf(event) : undefined;
}
