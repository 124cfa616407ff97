import type {
  JSONEventData,
  JSONType,
  MetadataType,
  RecordedEvent as ClientRecordedEvent,
} from '@kurrent/kurrentdb-client';
import type { EventMetadata, NewEvent, RecordedEvent } from '../event-store.port';
import { isKnownPosition, toPortPosition } from './client-position';

/** The server stores event ids as UUIDs (16 bytes): any other id cannot be written. */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** What the server hands back for an id: the canonical lower-case form. Ids compare in this form. */
export function canonicalId(id: string): string {
  return id.toLowerCase();
}

/**
 * A port event as the client's JSON event. Everything is checked here, before the client sees it:
 * the client serializes inside a promise executor, where a throw (circular data, a bigint, a
 * malformed id) would leave the append's promise pending forever instead of rejecting it.
 */
export function toEventData(event: NewEvent): JSONEventData {
  if (typeof event.id !== 'string' || !UUID.test(event.id))
    throw new TypeError(`event id ${JSON.stringify(event.id)}: EventStoreDB needs a UUID`);
  if (typeof event.type !== 'string' || event.type.length === 0)
    throw new TypeError(`event ${event.id}: type is required`);
  if (JSON.stringify(event.data) === undefined)
    throw new TypeError(`event ${event.id}: data must be JSON (got undefined)`);
  if (JSON.stringify(event.metadata) === undefined) throw new TypeError(`event ${event.id}: metadata must be JSON`);
  return {
    id: canonicalId(event.id),
    contentType: 'application/json',
    type: event.type,
    data: event.data as JSONType,
    metadata: event.metadata as MetadataType,
  };
}

export class MissingPositionError extends Error {
  constructor(streamId: string, revision: bigint) {
    super(
      `event ${revision} of ${streamId} came without its $all position: the EventStoreDB adapter needs a server that reports it on stream reads (EventStoreDB 22.6 or later, or KurrentDB)`,
    );
    this.name = 'MissingPositionError';
  }
}

/**
 * A stored event as the port's. `streamId` is the port's name for the stream (the caller strips
 * any namespace). The client has already parsed JSON data and metadata; bytes that are not JSON
 * (written by something other than Parley) stay bytes.
 */
export function toRecordedEvent(event: ClientRecordedEvent, streamId: string): RecordedEvent {
  if (!isKnownPosition(event.position)) throw new MissingPositionError(event.streamId, event.revision);
  return {
    id: event.id,
    streamId,
    revision: event.revision,
    position: toPortPosition(event.position),
    type: event.type,
    data: event.isJson ? event.data : decodeBytes(event.data as Uint8Array),
    metadata: toMetadata(event.metadata),
  };
}

function decodeBytes(bytes: Uint8Array): unknown {
  try {
    return JSON.parse(Buffer.from(bytes).toString('utf8'));
  } catch {
    return bytes;
  }
}

/** Events Parley wrote always carry an object; anything else (none, bytes) reads as empty metadata. */
function toMetadata(metadata: unknown): EventMetadata {
  const value = metadata instanceof Uint8Array ? decodeBytes(metadata) : metadata;
  return (
    value !== null && typeof value === 'object' && !Array.isArray(value) && !(value instanceof Uint8Array) ? value : {}
  ) as EventMetadata;
}
