import type { AppendResult, ExpectedRevision, NewEvent } from '../event-store.port';
import { IdempotencyMismatchError, WrongExpectedRevisionError } from '../errors';
import type { AppendOutcome, AppendRequest, SerializedEvent } from './batch-writer';
import { sqlitePosition, type EventRow } from './rows';
import type { Writer } from './writers';

interface PendingAppend extends AppendRequest {
  resolve(result: AppendResult): void;
  reject(error: unknown): void;
}

export interface CommitStats {
  commits: number;
  appends: number;
  events: number;
  lastBatchSize: number;
}

/**
 * Group commit: appends that arrive while a batch is being written and synced go into the next
 * single transaction, so one fsync serves many writers. Each append is still checked against its
 * own expected revision and fails alone; the others in its transaction commit.
 *
 * A flush runs on setImmediate, once the event loop has drained the I/O callbacks that were ready
 * (HTTP requests, resolved appends' continuations), which is what makes batches fill up. A writer
 * that can take a second batch before the first is settled (the writer thread, which writes them
 * in order) gets one: while the event loop answers the appends of the batch just committed, the
 * next batch is already being written. Without it the writer sat idle through that stretch, which
 * under load lasted longer than the commit itself.
 */
export class GroupCommitter {
  private queue: PendingAppend[] = [];
  private scheduled = false;
  /** batches handed to the writer and not settled yet, oldest first (the writer settles them in order) */
  private readonly inFlight: Array<Promise<void>> = [];
  readonly stats: CommitStats = { commits: 0, appends: 0, events: 0, lastBatchSize: 0 };

  constructor(
    private readonly writer: Writer,
    /** `written`: the rows the batch stored, in log order (an idempotent repeat stores none) */
    private readonly onCommitted: (stats: CommitStats, written: EventRow[]) => void,
    private readonly maxInFlight = 1,
  ) {}

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
      this.schedule();
    });
  }

  /** Batches handed to the writer and not settled yet: their rows may be in the file already. */
  get writing(): number {
    return this.inFlight.length;
  }

  /** Writes everything queued, and waits for the batches in flight: on close, no accepted append is dropped. */
  async drain(): Promise<void> {
    while (this.inFlight.length > 0 || this.queue.length > 0) {
      if (this.queue.length > 0 && this.inFlight.length < this.maxInFlight) this.flush();
      else await this.inFlight[0];
    }
  }

  private schedule(): void {
    if (this.scheduled || this.inFlight.length >= this.maxInFlight) return;
    this.scheduled = true;
    setImmediate(() => this.flush());
  }

  private flush(): void {
    this.scheduled = false;
    if (this.inFlight.length >= this.maxInFlight) return;
    const batch = this.queue;
    if (batch.length === 0) return;
    this.queue = [];
    const writing: Promise<void> = this.writer
      .write(batch.map(({ streamId, events, expected }) => ({ streamId, events, expected })))
      .then(
        (outcomes) => this.settle(batch, outcomes),
        // The transaction itself failed (disk, lock timeout): nothing of this batch is stored.
        (error: unknown) => batch.forEach((item) => item.reject(error)),
      )
      .finally(() => {
        this.inFlight.splice(this.inFlight.indexOf(writing), 1);
        if (this.queue.length > 0) this.schedule();
      });
    this.inFlight.push(writing);
  }

  private settle(batch: PendingAppend[], outcomes: AppendOutcome[]): void {
    this.stats.commits++;
    this.stats.appends += batch.length;
    this.stats.lastBatchSize = batch.length;
    const written: EventRow[] = [];
    batch.forEach((item, i) => {
      const outcome = outcomes[i];
      if (outcome.ok) {
        this.stats.events += item.events.length;
        if (!outcome.repeat) written.push(...storedRows(item, outcome));
        item.resolve({
          nextExpectedRevision: BigInt(outcome.revision),
          position: sqlitePosition(outcome.globalPosition),
        });
      } else item.reject(refusalError(item, outcome));
    });
    this.onCommitted(this.stats, written);
  }
}

/**
 * The rows one append stored, as a read of the log would return them. Its events went in one
 * after another inside the batch's transaction, so the outcome's last revision and position
 * give every one of them.
 */
function storedRows(
  { streamId, events }: AppendRequest,
  outcome: { revision: number; globalPosition: number },
): EventRow[] {
  const back = events.length - 1; // how far the first event is behind the last
  return events.map((event, j) => ({
    global_position: outcome.globalPosition - back + j,
    stream_id: streamId,
    revision: outcome.revision - back + j,
    event_id: event.id,
    type: event.type,
    data: event.data,
    metadata: event.metadata,
  }));
}

function refusalError(item: AppendRequest, outcome: Exclude<AppendOutcome, { ok: true }>): Error {
  switch (outcome.refusal) {
    case 'wrong-revision':
      return new WrongExpectedRevisionError(
        item.streamId,
        item.expected,
        outcome.actual === null ? null : BigInt(outcome.actual),
      );
    case 'idempotency-mismatch':
      return new IdempotencyMismatchError(item.streamId, outcome.eventId);
    case 'empty':
      return new RangeError('an append needs at least one event');
    case 'failed':
      return Object.assign(new Error(outcome.message), outcome.code ? { code: outcome.code } : {});
  }
}

function serialize(event: NewEvent): SerializedEvent {
  const data = JSON.stringify(event.data);
  const metadata = JSON.stringify(event.metadata);
  if (data === undefined) throw new TypeError(`event ${event.id}: data must be JSON (got undefined)`);
  if (metadata === undefined) throw new TypeError(`event ${event.id}: metadata must be JSON`);
  if (typeof event.id !== 'string' || event.id.length === 0) throw new TypeError('every event needs an id');
  if (typeof event.type !== 'string' || event.type.length === 0)
    throw new TypeError(`event ${event.id}: type is required`);
  return { id: event.id, type: event.type, data, metadata };
}
