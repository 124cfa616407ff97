import type { EventMetadata, RecordedEvent } from '../event-store.port';
import type { Position } from '../position';

export interface EventRow {
  global_position: number;
  stream_id: string;
  revision: number;
  event_id: string;
  type: string;
  data: string;
  metadata: string;
}

/** SQLite's single global_position is both halves of the position (commit = prepare). */
export function sqlitePosition(globalPosition: number): Position {
  const half = globalPosition.toString(16).padStart(16, '0');
  return `${half}:${half}` as Position;
}

/** Positions this store wrote carry equal halves; the commit half is the global_position. */
export function globalPositionOf(position: Position): number {
  return parseInt(position.slice(0, 16), 16);
}

/**
 * The stored row an event was read from, when it was (a subscription's read, LazyStoredEvent): a
 * thread that needs the event again (the read-model apply thread) is sent these strings, which copy
 * at memcpy speed, and parses them there, instead of a structured clone of the parsed object, which
 * costs this thread more than the parse did. A copy (an upcast's `{ ...event, data }`) is a plain
 * object and carries no row that no longer matches it.
 */
export function storedRowOf(event: RecordedEvent): EventRow | undefined {
  return event instanceof LazyStoredEvent ? LazyStoredEvent.rowOf(event) : undefined;
}

export function toRecordedEvent(row: EventRow): RecordedEvent {
  return {
    id: row.event_id,
    streamId: row.stream_id,
    revision: BigInt(row.revision),
    position: sqlitePosition(row.global_position),
    type: row.type,
    data: JSON.parse(row.data),
    metadata: JSON.parse(row.metadata) as EventMetadata,
  };
}

const UNPARSED = Symbol('unparsed');

/**
 * A stored event whose data and metadata are parsed when first read: a reader that hands events on
 * without reading them (the log feed, whose runners send the rows to the apply threads; a process
 * manager passing over types it does not handle; a projection, which never reads the metadata) pays
 * no parse for them. Every event a subscription reads is one, the tail window's included: the
 * window's readers share it, so an event is parsed at most once in this process. `data` and
 * `metadata` are getters of the class, not own properties: a spread or a structured clone leaves
 * them out, so a copy names them (as an upcast does); JSON.stringify goes through toJSON.
 */
export class LazyStoredEvent implements RecordedEvent {
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
    this.position = sqlitePosition(row.global_position);
    this.type = row.type;
    this.#row = row;
  }

  static rowOf(event: LazyStoredEvent): EventRow {
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
