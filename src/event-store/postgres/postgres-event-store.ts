import { Pool } from 'pg';
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
import { BatchWriter } from './batch-writer';
import { GroupCommitter, type CommitStats } from './group-commit';
import { LogReader } from './log-reader';
import { LogNotifications } from './notifications';
import { migrate } from './schema';
import { PostgresSubscription } from './subscription';
import { WakeUps } from './wake-ups';

export interface PostgresEventStoreOptions {
  /** postgres://user:password@host:5432/database */
  url: string;
  /** How often sleeping subscriptions look at the head, should a notification be missed (EVENT_STORE_POLL_MS). */
  pollIntervalMs?: number;
  /** Connections for reads (default 2): a command's stream read need not wait behind a catch-up page. */
  readers?: number;
  /** Told the number of appends each commit wrote (metrics). */
  onCommit?: (appends: number) => void;
  /** Tests: runs inside each group's transaction before COMMIT, to make transactions commit out of order. */
  beforeCommit?: () => Promise<void>;
}

const DEFAULT_BATCH = 1000;

/**
 * The log in PostgreSQL, shared by any number of processes (docs/architecture.md, "The log in
 * PostgreSQL"). Connections: one writer, since group commit wants one transaction at a time to
 * gather the appends that wait for it (more writers would split the groups and contend for the
 * same rows); a couple of readers; one LISTEN session (notifications.ts).
 */
export class PostgresEventStore implements EventStore {
  private closed = false;
  private readonly committer: GroupCommitter;
  private readonly reader: LogReader;
  private readonly wakeUps: WakeUps;
  private notifications: LogNotifications | null = null;
  private readonly subscriptions = new Set<PostgresSubscription>();
  /** headPosition's query in flight, and the one that runs next for those who asked meanwhile */
  private head: Promise<Position> | null = null;
  private nextHead: Promise<Position> | null = null;

  private constructor(
    private readonly writerPool: Pool,
    private readonly readerPool: Pool,
    private readonly pollIntervalMs: number,
    options: PostgresEventStoreOptions,
  ) {
    this.reader = new LogReader(readerPool);
    this.wakeUps = new WakeUps(pollIntervalMs, () => this.reader.head());
    this.committer = new GroupCommitter(new BatchWriter(writerPool, options.beforeCommit), (wroteIn, appends) => {
      options.onCommit?.(appends);
      this.wakeUps.committed(wroteIn);
    });
  }

  static async open(options: PostgresEventStoreOptions): Promise<PostgresEventStore> {
    const pollIntervalMs = options.pollIntervalMs ?? 100;
    const pool = (max: number, role: string) => {
      const created = new Pool({ connectionString: options.url, max, application_name: `parley:event-store-${role}` });
      // An idle connection that fails leaves the pool, and the next query connects anew: nothing to do here.
      created.on('error', () => undefined);
      return created;
    };
    const writerPool = pool(1, 'writer');
    const readerPool = pool(Math.max(1, options.readers ?? 2), 'reader');
    try {
      const client = await writerPool.connect();
      try {
        await migrate(client);
      } finally {
        client.release();
      }
      const store = new PostgresEventStore(writerPool, readerPool, pollIntervalMs, options);
      store.notifications = await LogNotifications.start(
        options.url,
        pollIntervalMs,
        (xid) => store.wakeUps.committed(xid),
        () => store.wakeUps.wakeAll(),
      );
      return store;
    } catch (error) {
      await Promise.all([writerPool.end(), readerPool.end()]).catch(() => undefined);
      throw error;
    }
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
    return this.reader.readStream(streamId, options);
  }

  async readAll(options: ReadAllOptions = {}): Promise<RecordedEvent[]> {
    this.assertOpen();
    return (await this.reader.readPage(options.after ?? START, options.maxCount ?? null)).events;
  }

  subscribeToAll(options: SubscribeOptions, handler: BatchHandler): Subscription {
    this.assertOpen();
    const subscription = new PostgresSubscription(
      // as on SQLite, every event a subscription reads is parsed when first read
      (after, maxCount) => this.reader.readPage(after, maxCount, true),
      this.wakeUps,
      this.pollIntervalMs,
      options,
      handler,
      DEFAULT_BATCH,
    );
    this.subscriptions.add(subscription);
    const forget = () => this.subscriptions.delete(subscription);
    subscription.done.then(forget, forget);
    return subscription;
  }

  /**
   * One query answers every caller of a turn of the event loop, and those who ask while it runs
   * wait for the next one: each projection runner asks after every batch it applies, and as many
   * queries on the reader connections resolved in as many turns, so the runners of one batch handed
   * their next batches to the apply thread in separate messages, each carrying the same events again
   * (a catch-up sent 40% more events across). A caller never gets the answer of a query that began
   * before it asked: a writer's own commit is in it.
   */
  async headPosition(): Promise<Position> {
    this.assertOpen();
    this.nextHead ??= new Promise<void>((resolve) => setImmediate(resolve))
      .then(() => this.head?.catch(() => undefined))
      .then(() => {
        const query = this.reader.head();
        this.nextHead = null;
        this.head = query;
        void query
          .finally(() => {
            if (this.head === query) this.head = null;
          })
          .catch(() => undefined);
        return query;
      });
    return this.nextHead;
  }

  async countAfter(position: Position): Promise<number> {
    this.assertOpen();
    return this.reader.countAfter(position);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    // Refuse new appends, but write every one already accepted.
    this.closed = true;
    await this.committer.drain();
    await Promise.all([...this.subscriptions].map((subscription) => subscription.stop()));
    this.wakeUps.close();
    await this.notifications?.close();
    await Promise.all([this.writerPool.end(), this.readerPool.end()]);
  }

  private assertOpen(): void {
    if (this.closed) throw new EventStoreClosedError();
  }
}
