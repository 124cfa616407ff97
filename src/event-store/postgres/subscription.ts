import type { BatchHandler, SubscribeOptions, Subscription } from '../event-store.port';
import { START, type Position } from '../position';
import type { LogPage } from './log-reader';
import type { Wait, WakeUps } from './wake-ups';

/** How soon a reader looks again for commits it knows of but cannot see yet, doubling up to the poll interval. */
const FIRST_RETRY_MS = 2;

/**
 * Catch-up then live, one loop: read the next page after the last position read; at the horizon,
 * sleep until a wake-up (wake-ups.ts). The position moves only forward, through rows below the
 * horizon, which no later commit can sort before (log-reader.ts): nothing is skipped nor repeated.
 *
 * A notification (or this process's own commit) can come while an older transaction, still open,
 * keeps the horizon at or below the commit's xid: the read then finds nothing new. The reader
 * knows a commit it has not seen exists, so it looks again shortly, backing off to the poll
 * interval, until the horizon passes it; it never goes to sleep on a commit it has not read.
 */
export class PostgresSubscription implements Subscription {
  readonly done: Promise<void>;
  private stopped = false;
  private waiting: Wait | null = null;

  constructor(
    private readonly read: (after: Position, maxCount: number) => Promise<LogPage>,
    private readonly wakeUps: WakeUps,
    private readonly pollIntervalMs: number,
    private readonly options: SubscribeOptions,
    private readonly handler: BatchHandler,
    defaultBatch: number,
  ) {
    this.done = this.run(options.after ?? START, Math.max(1, options.maxBatchSize ?? defaultBatch));
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.waiting?.cancel();
    await this.done.catch(() => undefined);
  }

  nudge(): void {
    this.waiting?.cancel();
  }

  private async run(after: Position, maxBatch: number): Promise<void> {
    // the caller holds the handle before the first batch arrives
    await new Promise((resolve) => setImmediate(resolve));
    const filter = this.options.filterTypes;
    let retryMs = FIRST_RETRY_MS;
    while (!this.stopped) {
      const seen = this.wakeUps.generation;
      const { events, horizon } = await this.read(after, maxBatch);
      if (this.stopped) return;
      if (events.length > 0) {
        after = events[events.length - 1].position;
        const delivered = filter ? events.filter((event) => filter(event.type)) : events;
        if (delivered.length > 0) await this.handler(delivered);
        if (events.length === maxBatch) continue;
      }
      if (this.wakeUps.knownCommitted >= horizon) {
        await this.pause(this.wakeUps.wait(seen, retryMs));
        retryMs = Math.min(retryMs * 2, this.pollIntervalMs);
        continue;
      }
      retryMs = FIRST_RETRY_MS;
      await this.pause(this.wakeUps.wait(seen));
    }
  }

  private async pause(wait: Wait): Promise<void> {
    // stop() during the last handler or read: nothing may ever wake this wait
    if (this.stopped) return wait.cancel();
    this.waiting = wait;
    await wait.promise;
    this.waiting = null;
  }
}
