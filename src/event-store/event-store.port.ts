import type { Position } from './position';

/** Revision of an event within its stream: 0 for the first event. bigint because EventStoreDB's are u64. */
export type StreamRevision = bigint;

/**
 * What the writer believes about the stream before its append.
 * - `any`: no check.
 * - `no_stream`: the stream has no events yet.
 * - `stream_exists`: the stream has at least one event.
 * - a revision: the stream's last event has exactly this revision.
 */
export type ExpectedRevision = 'any' | 'no_stream' | 'stream_exists' | StreamRevision;

/** Metadata every event carries (ARCHITECTURE.md). Stores keep extra keys as given. */
export interface EventMetadata {
  schemaVersion: number;
  /** key id, `operator`, or `system:<process>` */
  actor: string;
  correlationId: string;
  causationId: string | null;
  /** ISO 8601 UTC with milliseconds, from the platform clock */
  occurredAt: string;
  [extra: string]: unknown;
}

export interface NewEvent<T = unknown> {
  /** Unique id; appending an id already stored in the stream is a no-op (safe retries). */
  id: string;
  type: string;
  data: T;
  metadata: EventMetadata;
}

export interface RecordedEvent<T = unknown> {
  id: string;
  streamId: string;
  revision: StreamRevision;
  position: Position;
  type: string;
  data: T;
  metadata: EventMetadata;
}

export interface AppendResult {
  /** Revision of the last event now in the stream: pass it as the next expected revision. */
  nextExpectedRevision: StreamRevision;
  /** Log position of the last event written by this append. */
  position: Position;
}

export interface ReadStreamOptions {
  direction?: 'forwards' | 'backwards';
  /** Inclusive. Default: the first event (forwards) or the last (backwards). */
  fromRevision?: StreamRevision;
  maxCount?: number;
}

export interface ReadAllOptions {
  /** Exclusive: events strictly after this position. Default: from the start. */
  after?: Position;
  /** Default: no limit. Large logs should be read in pages. */
  maxCount?: number;
}

export interface SubscribeOptions {
  /** Exclusive: deliver events strictly after this position. Default: from the start. */
  after?: Position;
  /** Largest batch handed to the handler at once (catch-up reads this many per round). */
  maxBatchSize?: number;
  /** Only events whose type passes this predicate (all when omitted); the position still moves past the others. */
  filterTypes?: (type: string) => boolean;
  /**
   * A hint: the types whose arrival the handler acts on. Where the store can tell (SQLite), a
   * commit of none of them reaches the handler late, together with what followed, within a
   * moment (append-waiters.ts), unless `nudge` asks for it. Every event is still delivered in
   * order; only the timing of those the handler would pass over changes. With `filterTypes` and
   * without this, the filter is the hint.
   */
  wakeFor?: (type: string) => boolean;
  /**
   * A hint: the handler reads the data of few of the events it is given (it hands them on, as the
   * log feed's catch-up read hands rows to the apply threads). Where the store can (SQLite), a read
   * far behind the others then comes from the file and is not kept for them. (The SQLite store
   * parses every subscription's events when their data or metadata is first read: a copy of an
   * event must name those two, `{ ...event }` leaves them out.)
   */
  parseLazily?: boolean;
}

/**
 * A running subscription to the whole log. Batches arrive in log order, each strictly after the
 * previous; the next batch is not delivered before the handler's promise for the previous one
 * settles, so a slow handler applies back-pressure instead of piling events up in memory.
 */
export interface Subscription {
  /** Stops delivering; resolves once no handler call is running. */
  stop(): Promise<void>;
  /** Settles when the subscription ends: resolves after stop(), rejects if the handler or store failed. */
  readonly done: Promise<void>;
  /** Delivers what the log holds now, not lazily (see `wakeFor`): someone waits for this subscriber's position. */
  nudge(): void;
}

export type BatchHandler = (events: RecordedEvent[]) => Promise<void> | void;

export interface EventStore {
  append(streamId: string, events: NewEvent[], expectedRevision?: ExpectedRevision): Promise<AppendResult>;
  readStream(streamId: string, options?: ReadStreamOptions): Promise<RecordedEvent[]>;
  readAll(options?: ReadAllOptions): Promise<RecordedEvent[]>;
  subscribeToAll(options: SubscribeOptions, handler: BatchHandler): Subscription;
  /** Position of the last event in the log (START when empty). */
  headPosition(): Promise<Position>;
  /** Events after `position`, when the store can count them cheaply; null otherwise. */
  countAfter(position: Position): Promise<number | null>;
  close(): Promise<void>;
}

export const EVENT_STORE = Symbol('EventStore');
