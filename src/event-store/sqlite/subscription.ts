import type { BatchHandler, RecordedEvent, SubscribeOptions, Subscription } from '../event-store.port';
import { START, type Position } from '../position';

/** What a subscription needs from the store: a synchronous read and a wake-up on new events. */
export interface LogTail {
  /** `lazily`: a read behind what the subscriptions share is not kept for them (SubscribeOptions.parseLazily). */
  readAllSync(after: Position, maxCount: number, lazily?: boolean): RecordedEvent[];
  waitForAppend(wakeFor?: (type: string) => boolean): { promise: Promise<void>; cancel(): void };
  /**
   * How many times this process has learned that the log grew: its own commits, and polls that
   * found another process's appends. Unchanged since a read means that read saw everything known.
   */
  readonly growth: number;
}

/**
 * Catch-up then live, one loop: read the next batch after the last delivered position; when there
 * is none, sleep until a local commit (or the poll interval, for other processes' appends).
 * Positions only move forward and each batch starts strictly after the last one, so an event is
 * never skipped nor delivered twice, whether it was stored before or after the subscription began.
 */
export class SqliteSubscription implements Subscription {
  readonly done: Promise<void>;
  private stopped = false;
  private sleeping: { cancel(): void } | null = null;
  /** The position of the last event it has read: what it still needs of the tail comes after. */
  readThrough: Position;

  constructor(
    private readonly tail: LogTail,
    private readonly options: SubscribeOptions,
    private readonly handler: BatchHandler,
    defaultBatch: number,
  ) {
    this.readThrough = options.after ?? START;
    this.done = this.run(this.readThrough, options.maxBatchSize ?? defaultBatch);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.sleeping?.cancel();
    await this.done.catch(() => undefined);
  }

  nudge(): void {
    this.sleeping?.cancel();
  }

  private async run(after: Position, maxBatch: number): Promise<void> {
    // Start on a later turn of the event loop: the caller holds the handle before the first batch
    // arrives, and the synchronous work that led here (a read model opening and creating its
    // generation, say) and the first batch are two pauses for requests and timers, not one.
    await new Promise((resolve) => setImmediate(resolve));
    const filter = this.options.filterTypes;
    while (!this.stopped) {
      const seen = this.tail.growth;
      const batch = this.tail.readAllSync(after, maxBatch, this.options.parseLazily);
      if (batch.length === 0) {
        await this.sleep(seen);
        continue;
      }
      after = batch[batch.length - 1].position;
      this.readThrough = after;
      const delivered = filter ? batch.filter((event) => filter(event.type)) : batch;
      if (delivered.length > 0) await this.handler(delivered);
      // better-sqlite3 and TypeORM's wrapper around it resolve without real I/O waits: during a long
      // catch-up, give the event loop a turn after each full batch so requests are not starved.
      if (batch.length === maxBatch) await new Promise((resolve) => setImmediate(resolve));
      // The read reached the head and the log has not grown since, as far as this process knows:
      // an empty read would find nothing. A poll that found another process's append while the
      // handler ran counts as growth: it woke only those asleep then, and will not report it again.
      else await this.sleep(seen);
    }
  }

  /** Until the log grows past what the read begun at `seen` could have found. */
  private async sleep(seen: number): Promise<void> {
    // stop() came during the last handler: nothing may ever wake this sleep (the head is not moving)
    if (this.stopped || this.tail.growth !== seen) return;
    // A filtered subscription never sees the events it filters out: those need not wake it either.
    const wait = this.tail.waitForAppend(this.options.wakeFor ?? this.options.filterTypes);
    this.sleeping = wait;
    await wait.promise;
    this.sleeping = null;
  }
}
