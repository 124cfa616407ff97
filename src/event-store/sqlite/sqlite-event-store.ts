import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import type {
  AppendResult,
  BatchHandler,
  EventStore,
  ExpectedRevision,
  NewEvent,
  ReadAllOptions,
  ReadStreamOptions,
  RecordedEvent,
  SubscribeOptions,
  Subscription,
} from '../event-store.port';
import { EventStoreClosedError } from '../errors';
import { START, type Position } from '../position';
import { CommitStats, GroupCommitter } from './group-commit';
import { AdaptiveWriter, InlineWriter, ThreadWriter, type Writer } from './writers';
import { EventRow, globalPositionOf, LazyStoredEvent, sqlitePosition, toRecordedEvent } from './rows';
import { configure, migrate, type SyncMode } from './schema';
import { Checkpointer, type CheckpointStats } from './checkpointer';
import { TailWindow } from './tail-window';
import { LimitedStatements } from '../../platform/database/limited-statements';
import { LogTail, SqliteSubscription } from './subscription';
import { AppendWaiters } from './append-waiters';

export interface SqliteEventStoreOptions {
  file: string;
  sync: SyncMode;
  /**
   * How often subscriptions look for events appended by another process sharing the file.
   * Appends of this process wake them at once.
   */
  pollIntervalMs?: number;
  /**
   * `thread` (the default): batches of appends are written on a worker thread's own connection,
   * so their commits and fsync run beside the event loop (a lone append is written inline, see
   * AdaptiveWriter). `inline`: everything on this thread's connection.
   */
  writer?: 'thread' | 'inline';
  /** Told the number of appends each commit wrote (metrics). */
  onCommit?: (appends: number) => void;
  /**
   * With the thread writer: the checkpointer thread (checkpointer.ts) starts after this many
   * commits of this process, when the log sees steady writes. Until then, or if it never starts,
   * the commits checkpoint the WAL themselves.
   */
  checkpointerAfterCommits?: number;
  /** How late a commit of no type a sleeping subscription wakes for may reach it (append-waiters.ts; tests). */
  lazyWakeMs?: number;
  /** How many such events may gather before it is woken anyway (append-waiters.ts, LAZY_WAKE_EVENTS). */
  lazyWakeEvents?: number;
}

/** A few seconds of steady appends: a store opened for a few writes (a CLI, a test) never pays for the thread. */
const CHECKPOINTER_AFTER_COMMITS = 256;

const DEFAULT_BATCH = 1000;
/** Events kept parsed for the subscriptions of this process (tail-window.ts): a few seconds of a busy log. */
const TAIL_WINDOW_EVENTS = 10_000;
const globalPositionOfEvent = (event: RecordedEvent) => globalPositionOf(event.position);

export class SqliteEventStore implements EventStore, LogTail {
  private closed = false;
  private readonly committer: GroupCommitter;
  /** the checkpointer thread, once started (see checkpointerAfterCommits) */
  private checkpointer: Promise<Checkpointer | null> | null = null;
  private readonly waiters: AppendWaiters;
  private readonly tail = new TailWindow(TAIL_WINDOW_EVENTS);
  /**
   * The local commit count when a read last found the end of the log at the window's end: until
   * this process commits again (or a poll looks for other processes' appends), nothing follows it.
   */
  private tailEndAtCommit: number | null = null;
  private readonly subscriptions = new Set<SqliteSubscription>();
  /** The head of the log when it was last polled (see poll). */
  private polledHead: number;
  /** How many polls found the head moved by another process (see growth). */
  private headMovesPolled = 0;
  /** Events this process's commits stored after polledHead (settled ones are all at or before the head). */
  private writtenSincePoll = 0;
  private pollTimer: NodeJS.Timeout | null = null;
  private readonly statements: {
    forwards: LimitedStatements<[string, number], EventRow>;
    backwards: LimitedStatements<[string, number], EventRow>;
    all: LimitedStatements<[number], EventRow>;
    head: Database.Statement<[], { p: number | null }>;
  };

  private constructor(
    private readonly db: Database.Database,
    private readonly writer: Writer,
    /** starts the checkpointer thread; null with the inline writer */
    startCheckpointer: (() => Promise<Checkpointer>) | null,
    checkpointerAfterCommits: number,
    readonly pollIntervalMs: number,
    onCommit?: (appends: number) => void,
    lazy: { lazyWakeMs?: number; lazyWakeEvents?: number } = {},
  ) {
    this.waiters = new AppendWaiters(lazy.lazyWakeMs, lazy.lazyWakeEvents);
    // the writer thread takes the next batch while the last one's appends are being answered
    const maxInFlight = writer instanceof InlineWriter ? 1 : 2;
    this.committer = new GroupCommitter(
      writer,
      (stats, written) => {
        onCommit?.(stats.lastBatchSize);
        for (const row of written) if (row.global_position > this.polledHead) this.writtenSincePoll++;
        this.extendTail(written, stats.commits);
        this.waiters.committed(written.map((row) => row.type));
        if (startCheckpointer && !this.checkpointer && stats.commits >= checkpointerAfterCommits)
          this.checkpointer = this.startCheckpointer(startCheckpointer);
      },
      maxInFlight,
    );
    this.statements = {
      forwards: new LimitedStatements(
        db,
        'SELECT * FROM events WHERE stream_id = ? AND revision >= ? ORDER BY revision ASC',
      ),
      backwards: new LimitedStatements(
        db,
        'SELECT * FROM events WHERE stream_id = ? AND revision <= ? ORDER BY revision DESC',
      ),
      all: new LimitedStatements(db, 'SELECT * FROM events WHERE global_position > ? ORDER BY global_position ASC'),
      head: db.prepare('SELECT max(global_position) AS p FROM events'),
    };
    this.polledHead = this.statements.head.get()!.p ?? 0;
  }

  static async open(options: SqliteEventStoreOptions): Promise<SqliteEventStore> {
    fs.mkdirSync(path.dirname(path.resolve(options.file)), { recursive: true });
    const file = path.resolve(options.file);
    const db = new Database(options.file);
    let thread: ThreadWriter | undefined;
    try {
      const pollIntervalMs = options.pollIntervalMs ?? 100;
      if (options.writer === 'inline') {
        configure(db, options.sync);
        migrate(db);
        return new SqliteEventStore(db, new InlineWriter(db), null, 0, pollIntervalMs, options.onCommit, options);
      }
      // With threads, the checkpoints are the checkpointer thread's and the writer thread's
      // commits', never the event loop's (schema.ts, CheckpointMode)
      configure(db, options.sync, 'never');
      migrate(db);
      thread = await ThreadWriter.start(file, options.sync, 'thread');
      const startCheckpointer = () => Checkpointer.start(file, options.sync);
      return new SqliteEventStore(
        db,
        new AdaptiveWriter(new InlineWriter(db), thread),
        startCheckpointer,
        options.checkpointerAfterCommits ?? CHECKPOINTER_AFTER_COMMITS,
        pollIntervalMs,
        options.onCommit,
        options,
      );
    } catch (error) {
      await thread?.close();
      db.close();
      throw error;
    }
  }

  /** What the checkpointer thread has done; null before it started (and with the inline writer). */
  async checkpointStats(): Promise<CheckpointStats | null> {
    const checkpointer = await this.checkpointer;
    return checkpointer ? checkpointer.stats() : null;
  }

  /** Null when it could not start: the commits' own checkpoints go on bounding the WAL. */
  private async startCheckpointer(start: () => Promise<Checkpointer>): Promise<Checkpointer | null> {
    try {
      return await start();
    } catch {
      return null;
    }
  }

  /** LogTail: local commits, plus the polls that found another process's appends. */
  get growth(): number {
    return this.committer.stats.commits + this.headMovesPolled;
  }

  get commitStats(): Readonly<CommitStats> {
    return this.committer.stats;
  }

  append(streamId: string, events: NewEvent[], expectedRevision: ExpectedRevision = 'any'): Promise<AppendResult> {
    if (this.closed) return Promise.reject(new EventStoreClosedError());
    return this.committer.enqueue(streamId, events, expectedRevision);
  }

  async readStream(streamId: string, options: ReadStreamOptions = {}): Promise<RecordedEvent[]> {
    this.assertOpen();
    const limit = options.maxCount ?? -1;
    const rows =
      options.direction === 'backwards'
        ? this.statements.backwards.all(limit, streamId, toRevisionBound(options.fromRevision, Number.MAX_SAFE_INTEGER))
        : this.statements.forwards.all(limit, streamId, toRevisionBound(options.fromRevision, 0));
    return rows.map(toRecordedEvent);
  }

  async readAll(options: ReadAllOptions = {}): Promise<RecordedEvent[]> {
    this.assertOpen();
    return this.statements.all
      .all(options.maxCount ?? -1, globalPositionOf(options.after ?? START))
      .map(toRecordedEvent);
  }

  /**
   * LogTail: the subscription's synchronous read. Subscribers share the events (the tail window):
   * they treat them as read-only.
   */
  readAllSync(after: Position, maxCount: number, lazily = false): RecordedEvent[] {
    this.assertOpen();
    const from = globalPositionOf(after);
    const known = this.tail.after(from, maxCount);
    if (known !== null && maxCount !== -1 && known.length >= maxCount) return known;
    if (known !== null && this.tailEndAtCommit === this.committer.stats.commits) return known;
    // A reader that hands its events on unread (the log feed's catch-up) takes them from the file:
    // a read far behind the others never replaces the window they share.
    if (lazily && known === null) return this.statements.all.all(maxCount, from).map(toLazyEvent);
    // what follows the window (or, outside it, what follows `after`) comes from the file
    const readFrom = known !== null ? this.tail.last! : from;
    const commits = this.committer.stats.commits;
    // The caller's own batch size, not what is left of it after the window: one cached statement
    // per subscriber (limited-statements.ts) instead of a new one for each remainder. The rows past
    // the remainder join the window and serve the next read.
    const more = this.statements.all.all(maxCount, readFrom).map(toLazyEvent);
    // a subscription behind the window (a catch-up) does not replace the tail the others share
    if (readFrom >= (this.tail.last ?? -1)) {
      this.tail.keep(readFrom, more, globalPositionOfEvent);
      // A short read reached the log's end; the window ends there too only if this read continued
      // it or replaced it. An empty read from past the window (a subscriber at the head while a
      // catch-up filled the window) leaves it ending earlier: marking it as the end once had every
      // reader behind it sleep until the next commit, forever on an idle log.
      const endedAt = more.length > 0 ? globalPositionOfEvent(more[more.length - 1]) : readFrom;
      if (this.tail.last === endedAt && (maxCount === -1 || more.length < maxCount)) this.tailEndAtCommit = commits;
      // another process's appends join the window here, not at a commit of this one
      if (more.length > 0) this.releaseTail();
    }
    if (known === null) return more;
    const wanted = maxCount === -1 ? more : more.slice(0, maxCount - known.length);
    return wanted.length === 0 ? known : known.concat(wanted);
  }

  /**
   * A commit of this process that continues the window joins it as written, from the same strings
   * a read of the file would return (parsed when first read, LazyStoredEvent): the subscriptions
   * woken by the commit then find it here, and the first of them no longer reads back what this
   * process just wrote. The window stays known to end at the log's end only if it was so just
   * before this commit (a poll that found the head moved since, or a gap before these rows, leaves
   * the next read to the file).
   */
  private extendTail(written: EventRow[], commits: number): void {
    const last = this.tail.last;
    if (written.length > 0) {
      if (last === null || written[0].global_position !== last + 1) return;
      this.tail.keep(last, written.map(toLazyEvent), globalPositionOfEvent);
    }
    // (a commit of refusals and retries alone stored nothing: the end stays where it was)
    if (this.tailEndAtCommit === commits - 1) this.tailEndAtCommit = commits;
    this.releaseTail();
  }

  /**
   * The window keeps only what a subscription reading from it has yet to read (and at most its
   * capacity): the events of a busy log then die young. Kept for seconds, every event and its
   * strings outlived a few young-generation collections and were copied into the old one, which
   * made every scavenge long under load.
   * Subscriptions behind the window read the file and hold nothing in it.
   */
  private releaseTail(): void {
    const first = this.tail.first;
    if (first === null) return;
    let needed = Number.POSITIVE_INFINITY;
    for (const subscription of this.subscriptions) {
      const at = globalPositionOf(subscription.readThrough);
      if (at >= first - 1 && at < needed) needed = at;
    }
    this.tail.release(needed);
  }

  subscribeToAll(options: SubscribeOptions, handler: BatchHandler): Subscription {
    this.assertOpen();
    const subscription = new SqliteSubscription(this, options, handler, DEFAULT_BATCH);
    this.subscriptions.add(subscription);
    subscription.done.then(
      () => this.subscriptions.delete(subscription),
      () => this.subscriptions.delete(subscription),
    );
    return subscription;
  }

  /**
   * LogTail: resolves at the next local commit that holds a type `wakeFor` passes (any type
   * without it), lazily after commits of other types (append-waiters.ts), when a poll finds that
   * another process appended, or at `cancel`.
   */
  waitForAppend(wakeFor?: (type: string) => boolean): { promise: Promise<void>; cancel(): void } {
    const wait = this.waiters.wait(wakeFor);
    this.schedulePoll();
    return wait;
  }

  private schedulePoll(): void {
    if (this.pollTimer || this.closed) return;
    this.pollTimer = setTimeout(() => {
      this.pollTimer = null;
      this.poll();
    }, this.pollIntervalMs);
  }

  /**
   * One read of the head for all the sleeping subscriptions (every read model and process manager:
   * dozens), where each used to read the log itself every interval: an idle server spent a tenth of
   * its event loop on those reads on a machine with slow system calls. A head that moved since the
   * last poll wakes them all, so another process's append is still seen within the interval: the
   * poll that first sees it wakes every subscription that slept before it, and those asleep since
   * read the file after the append.
   */
  private poll(): void {
    if (this.closed || this.waiters.size === 0) return;
    // A batch of this process's on the writer thread is in the file before its answer is here: a
    // head moved by it would read as another process's append. While one is in flight, the next
    // poll judges; meanwhile this process's commits wake every sleeper (lazily) and a commit after
    // another process's rows finds the gap and sends the reads to the file (extendTail).
    if (this.committer.writing > 0) {
      this.schedulePoll();
      return;
    }
    const head = this.statements.head.get()!.p ?? 0;
    if (head !== this.polledHead) {
      // Positions are dense: a head that moved by exactly what this process wrote since the last
      // poll moved by its commits alone, and each of those already woke every subscription.
      const foreign = head - this.polledHead > this.writtenSincePoll;
      this.polledHead = head;
      this.writtenSincePoll = 0;
      if (foreign) {
        this.headMovesPolled++;
        this.tailEndAtCommit = null;
        this.waiters.wakeAll();
      }
    }
    if (this.waiters.size > 0) this.schedulePoll();
  }

  async headPosition(): Promise<Position> {
    this.assertOpen();
    const { p } = this.statements.head.get()!;
    return p === null ? START : sqlitePosition(p);
  }

  /**
   * Positions are dense (1, 2, 3, ...): events are never deleted, and a rolled-back append rolls
   * back its AUTOINCREMENT step with it. So the count is a subtraction, not a count(*) that would
   * walk every row after the position (millions, on every /readyz or lag poll of a rebuild).
   */
  async countAfter(position: Position): Promise<number> {
    this.assertOpen();
    const { p } = this.statements.head.get()!;
    return Math.max(0, (p ?? 0) - globalPositionOf(position));
  }

  async close(): Promise<void> {
    if (this.closed) return;
    // Refuse new appends, but write every one already accepted.
    this.closed = true;
    if (this.pollTimer) clearTimeout(this.pollTimer);
    await this.committer.drain();
    await Promise.all([...this.subscriptions].map((s) => s.stop()));
    this.waiters.wakeAll();
    await this.writer.close();
    await (await this.checkpointer)?.close();
    this.db.close();
  }

  private assertOpen(): void {
    if (this.closed) throw new EventStoreClosedError();
  }
}

function toRevisionBound(revision: bigint | undefined, fallback: number): number {
  if (revision === undefined) return fallback;
  if (revision < 0n) throw new RangeError('a stream revision is never negative');
  return revision > BigInt(Number.MAX_SAFE_INTEGER) ? Number.MAX_SAFE_INTEGER : Number(revision);
}

const toLazyEvent = (row: EventRow): RecordedEvent => new LazyStoredEvent(row);
