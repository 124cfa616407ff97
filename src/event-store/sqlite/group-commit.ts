import type Database from 'better-sqlite3';
import type { AppendResult, ExpectedRevision, NewEvent } from '../event-store.port';
import { IdempotencyMismatchError, WrongExpectedRevisionError, expectedRevisionMatches } from '../errors';
import { sqlitePosition } from './rows';

/** An event with its data and metadata already serialised, in the caller's turn. */
interface SerializedEvent {
  id: string;
  type: string;
  data: string;
  metadata: string;
}

interface PendingAppend {
  streamId: string;
  events: SerializedEvent[];
  expected: ExpectedRevision;
  resolve(result: AppendResult): void;
  reject(error: unknown): void;
}

interface StoredId {
  stream_id: string;
  revision: number;
  global_position: number;
}

export interface CommitStats {
  commits: number;
  appends: number;
  events: number;
  lastBatchSize: number;
}

/**
 * Group commit: appends that arrive while a commit is being prepared or synced go into the next
 * single transaction, so one fsync serves many writers. Each append is still checked against its
 * own expected revision and fails alone; the others in its transaction commit.
 *
 * better-sqlite3 is synchronous, so "in flight" means: queued by callers since the last flush.
 * The flush runs on setImmediate, after the event loop has drained the I/O callbacks that were
 * ready (HTTP requests, resolved appends' continuations), which is what makes batches fill up.
 */
export class GroupCommitter {
  private queue: PendingAppend[] = [];
  private scheduled = false;
  readonly stats: CommitStats = { commits: 0, appends: 0, events: 0, lastBatchSize: 0 };

  private readonly lastRevision: Database.Statement<[string], { revision: number }>;
  private readonly findId: Database.Statement<[string], StoredId>;
  private readonly insert: Database.Statement<[string, number, string, string, string, string]>;
  private readonly commitBatch: (batch: PendingAppend[]) => Array<AppendResult | Error>;

  constructor(
    db: Database.Database,
    private readonly onCommitted: (stats: CommitStats) => void,
  ) {
    this.lastRevision = db.prepare('SELECT revision FROM events WHERE stream_id = ? ORDER BY revision DESC LIMIT 1');
    this.findId = db.prepare('SELECT stream_id, revision, global_position FROM events WHERE event_id = ?');
    this.insert = db.prepare(
      'INSERT INTO events (stream_id, revision, event_id, type, data, metadata) VALUES (?, ?, ?, ?, ?, ?)',
    );
    // Each append runs in its own savepoint: if SQLite refuses one, only that one is undone.
    const one = db.transaction((item: PendingAppend) => this.applyOne(item));
    const tx = db.transaction((batch: PendingAppend[]) =>
      batch.map((item) => {
        try {
          return one(item);
        } catch (error) {
          return error instanceof Error ? error : new Error(String(error));
        }
      }),
    );
    // IMMEDIATE takes the write lock up front: no deadlock upgrading a read lock when another
    // process shares the file.
    this.commitBatch = (batch) => tx.immediate(batch);
  }

  enqueue(streamId: string, events: NewEvent[], expected: ExpectedRevision): Promise<AppendResult> {
    let serialized: SerializedEvent[];
    try {
      // Serialising here makes unstorable data (cycles, BigInt, undefined) this caller's error alone.
      serialized = events.map(serialize);
    } catch (error) {
      return Promise.reject(error);
    }
    return new Promise((resolve, reject) => {
      this.queue.push({ streamId, events: serialized, expected, resolve, reject });
      if (!this.scheduled) {
        this.scheduled = true;
        setImmediate(() => this.flush());
      }
    });
  }

  /** Commits everything queued now. Also called on close so no accepted append is dropped. */
  flush(): void {
    this.scheduled = false;
    const batch = this.queue;
    if (batch.length === 0) return;
    this.queue = [];
    let outcomes: Array<AppendResult | Error>;
    try {
      outcomes = this.commitBatch(batch);
    } catch (error) {
      // The transaction itself failed (disk, lock timeout): nothing of this batch is stored.
      for (const item of batch) item.reject(error);
      return;
    }
    this.stats.commits++;
    this.stats.appends += batch.length;
    this.stats.lastBatchSize = batch.length;
    batch.forEach((item, i) => {
      const outcome = outcomes[i];
      if (outcome instanceof Error) item.reject(outcome);
      else {
        this.stats.events += item.events.length;
        item.resolve(outcome);
      }
    });
    this.onCommitted(this.stats);
  }

  /** Runs inside the batch transaction. Returns an Error instead of throwing so only this append fails. */
  private applyOne({ streamId, events, expected }: PendingAppend): AppendResult | Error {
    const retry = this.matchRetry(streamId, events);
    if (retry) return retry;
    const row = this.lastRevision.get(streamId);
    const actual = row === undefined ? null : BigInt(row.revision);
    if (!expectedRevisionMatches(expected, actual)) return new WrongExpectedRevisionError(streamId, expected, actual);
    let revision = row === undefined ? -1 : row.revision;
    let position = 0;
    for (const event of events) {
      revision++;
      const info = this.insert.run(streamId, revision, event.id, event.type, event.data, event.metadata);
      position = Number(info.lastInsertRowid);
    }
    return { nextExpectedRevision: BigInt(revision), position: sqlitePosition(position) };
  }

  /**
   * An append whose ids are all stored, consecutively, in this stream is a retry of that append:
   * answer what it answered. Some ids stored and some not (or stored elsewhere) is a caller bug.
   * Returns undefined when none of the ids is stored: a fresh append.
   */
  private matchRetry(streamId: string, events: SerializedEvent[]): AppendResult | Error | undefined {
    if (events.length === 0) return new RangeError('an append needs at least one event');
    const seen = new Set<string>();
    let first: StoredId | undefined;
    let last: StoredId | undefined;
    for (let i = 0; i < events.length; i++) {
      const id = events[i].id;
      if (seen.has(id)) return new IdempotencyMismatchError(streamId, id);
      seen.add(id);
      const stored = this.findId.get(id);
      if (i === 0) first = stored;
      const consistent = first === undefined
        ? stored === undefined
        : stored !== undefined && stored.stream_id === streamId && stored.revision === first.revision + i;
      // Name the id that is stored: the first one when the stored part comes first.
      if (!consistent) return new IdempotencyMismatchError(streamId, stored === undefined ? events[0].id : id);
      last = stored;
    }
    if (first === undefined || last === undefined) return undefined;
    return { nextExpectedRevision: BigInt(last.revision), position: sqlitePosition(last.global_position) };
  }

  rejectAll(error: Error): void {
    const batch = this.queue;
    this.queue = [];
    for (const item of batch) item.reject(error);
  }
}

function serialize(event: NewEvent): SerializedEvent {
  const data = JSON.stringify(event.data);
  const metadata = JSON.stringify(event.metadata);
  if (data === undefined) throw new TypeError(`event ${event.id}: data must be JSON (got undefined)`);
  if (metadata === undefined) throw new TypeError(`event ${event.id}: metadata must be JSON`);
  if (typeof event.id !== 'string' || event.id.length === 0) throw new TypeError('every event needs an id');
  if (typeof event.type !== 'string' || event.type.length === 0) throw new TypeError(`event ${event.id}: type is required`);
  return { id: event.id, type: event.type, data, metadata };
}
