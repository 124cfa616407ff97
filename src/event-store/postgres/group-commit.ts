import type { AppendResult, ExpectedRevision, NewEvent } from '../event-store.port';
import { IdempotencyMismatchError, WrongExpectedRevisionError } from '../errors';
import type { AppendOutcome, AppendRequest, BatchResult, BatchWriter, SerializedEvent } from './batch-writer';

interface PendingAppend extends AppendRequest {
  resolve(result: AppendResult): void;
  reject(error: unknown): void;
}

export interface CommitStats {
  /** Transactions that ran a group (a group split after a failure counts each of its parts). */
  commits: number;
  appends: number;
  /** Transactions rolled back and run again (deadlocks, the stream-order check of append-function.ts). */
  retries: number;
}

/** A group's parameters stay well inside what one statement should carry. */
const MAX_GROUP_EVENTS = 5_000;

/**
 * Group commit: appends that arrive while a transaction is in flight go into the next one, so one
 * round trip and one commit serve many writers (one writer connection, one transaction at a time).
 * A flush runs on setImmediate, after the I/O callbacks that were ready, which lets a group fill.
 *
 * Every append is decided on its own inside the transaction, so a refusal fails it alone. If the
 * transaction itself fails (an error nobody foresaw, a lost connection), the group is written
 * again one append per transaction, so only the append at fault fails; ids make that safe even
 * when the lost transaction had committed (the retry is answered as a repeat).
 */
export class GroupCommitter {
  private queue: PendingAppend[] = [];
  private scheduled = false;
  private writing: Promise<void> | null = null;
  readonly stats: CommitStats = { commits: 0, appends: 0, retries: 0 };

  constructor(
    private readonly writer: BatchWriter,
    /** After each commit: `wroteIn` the transaction's xid8 when it stored events. */
    private readonly onCommitted: (wroteIn: bigint | null, appends: number) => void,
  ) {}

  enqueue(streamId: string, events: NewEvent[], expected: ExpectedRevision): Promise<AppendResult> {
    let serialized: SerializedEvent[];
    try {
      // Checked here, so unstorable data (cycles, BigInt, a NUL in a name) is this caller's error alone.
      if (events.length === 0) throw new RangeError('an append needs at least one event');
      if (typeof expected === 'bigint' && expected < 0n) throw new RangeError('a stream revision is never negative');
      checkText('stream id', streamId);
      serialized = events.map(serialize);
      const duplicate = serialized.find((event, i) => serialized.findIndex((other) => other.id === event.id) !== i);
      if (duplicate) throw new IdempotencyMismatchError(streamId, duplicate.id);
    } catch (error) {
      return Promise.reject(error);
    }
    return new Promise((resolve, reject) => {
      this.queue.push({ streamId, events: serialized, expected, resolve, reject });
      this.schedule();
    });
  }

  /** Writes everything queued: on close, no accepted append is dropped. */
  async drain(): Promise<void> {
    while (this.writing || this.queue.length > 0) {
      if (this.writing) await this.writing;
      else this.flush();
    }
  }

  private schedule(): void {
    if (this.scheduled || this.writing) return;
    this.scheduled = true;
    setImmediate(() => this.flush());
  }

  private flush(): void {
    this.scheduled = false;
    if (this.writing || this.queue.length === 0) return;
    const group = this.takeGroup();
    this.writing = this.write(group).finally(() => {
      this.writing = null;
      if (this.queue.length > 0) this.schedule();
    });
  }

  private takeGroup(): PendingAppend[] {
    let events = 0;
    let taken = 0;
    while (taken < this.queue.length && (taken === 0 || events + this.queue[taken].events.length <= MAX_GROUP_EVENTS))
      events += this.queue[taken++].events.length;
    return this.queue.splice(0, taken);
  }

  private async write(group: PendingAppend[]): Promise<void> {
    let result: BatchResult;
    try {
      result = await this.writer.write(group);
    } catch (error) {
      if (group.length === 1) return group[0].reject(error);
      for (const append of group) await this.write([append]);
      return;
    }
    this.stats.commits++;
    this.stats.appends += group.length;
    this.stats.retries += result.attempts - 1;
    group.forEach((append, i) => settle(append, result.outcomes[i]));
    this.onCommitted(result.wroteIn, group.length);
  }
}

function settle(append: PendingAppend, outcome: AppendOutcome): void {
  if (outcome.ok) return append.resolve({ nextExpectedRevision: outcome.revision, position: outcome.position });
  switch (outcome.refusal) {
    case 'wrong-revision':
      return append.reject(new WrongExpectedRevisionError(append.streamId, append.expected, outcome.actual));
    case 'idempotency-mismatch':
      return append.reject(new IdempotencyMismatchError(append.streamId, outcome.eventId));
    case 'failed':
      return append.reject(new Error(`stream ${append.streamId}: ${outcome.message}`));
  }
}

function serialize(event: NewEvent): SerializedEvent {
  const data = JSON.stringify(event.data);
  const metadata = JSON.stringify(event.metadata);
  if (data === undefined) throw new TypeError(`event ${event.id}: data must be JSON (got undefined)`);
  if (metadata === undefined) throw new TypeError(`event ${event.id}: metadata must be JSON`);
  checkText('event id', event.id);
  checkText(`event ${event.id}: type`, event.type);
  return { id: event.id, type: event.type, data, metadata };
}

/** PostgreSQL text holds no NUL character (JSON text escapes it, so data and metadata are fine). */
function checkText(what: string, value: unknown): void {
  if (typeof value !== 'string' || value.length === 0) throw new TypeError(`${what} must be a non-empty string`);
  if (value.includes('\u0000')) throw new TypeError(`${what} must not contain a NUL character`);
}
