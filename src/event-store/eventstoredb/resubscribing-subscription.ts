import type { BatchHandler, RecordedEvent, SubscribeOptions, Subscription } from '../event-store.port';
import { START, comparePositions, type Position } from '../position';
import { FeedClosedError, FeedDroppedError, type AllFeed, type AllFeedSource } from './all-feed';
import { backoffDelay, DEFAULT_BACKOFF, type BackoffPolicy } from './backoff';
import { isPermanentClientError } from './error-translation';
import { isSystemEvent } from './system-events';

/** The slice of the app's pino logger the loop writes to. */
export interface SubscriptionLogger {
  warn(fields: object, message: string): void;
  info(fields: object, message: string): void;
}

export interface Pause {
  promise: Promise<void>;
  cancel(): void;
}

export interface ResubscribeSettings {
  logger: SubscriptionLogger;
  backoff?: BackoffPolicy;
  /** Largest batch when the subscriber names none. */
  defaultBatch?: number;
  /** Tests pass their own clock and dice. */
  pause?: (ms: number) => Pause;
  random?: () => number;
}

function timerPause(ms: number): Pause {
  let cancel!: () => void;
  const promise = new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    cancel = () => {
      clearTimeout(timer);
      resolve();
    };
  });
  return { promise, cancel };
}

/** Tells the loop a failure came from the subscriber's handler, not from the server. */
class HandlerFailure {
  constructor(readonly cause: unknown) {}
}

/**
 * A catch-up subscription to `$all` that survives drops. `after` is the position of the last
 * event handled (delivered, or skipped by filterTypes or as a system event) and only moves once
 * the handler's promise has settled; after a drop the loop subscribes again strictly after it.
 * So an event is never skipped (nothing past `after` was handled) and never repeated (nothing
 * at or before `after` is delivered again, even should a server send it twice).
 */
export class ResubscribingSubscription implements Subscription {
  readonly done: Promise<void>;
  private stopped = false;
  private feed: AllFeed | null = null;
  private pausing: Pause | null = null;

  constructor(
    private readonly source: AllFeedSource,
    options: SubscribeOptions,
    private readonly handler: BatchHandler,
    private readonly settings: ResubscribeSettings,
  ) {
    this.done = this.run(
      options.after ?? START,
      options.maxBatchSize ?? settings.defaultBatch ?? 500,
      options.filterTypes,
    );
  }

  /** Every event is pushed as it comes: nothing is held back to ask for. */
  nudge(): void {}

  async stop(): Promise<void> {
    this.stopped = true;
    this.pausing?.cancel();
    void this.feed?.close();
    await this.done.catch(() => undefined);
  }

  private async run(
    after: Position,
    maxBatch: number,
    filterTypes: ((type: string) => boolean) | undefined,
  ): Promise<void> {
    // Start on a later turn, so the caller holds the handle before the first batch arrives.
    await Promise.resolve();
    let failures = 0;
    while (!this.stopped) {
      const feed = this.source.open(after);
      this.feed = feed;
      try {
        for (;;) {
          const received = await feed.nextBatch(maxBatch);
          if (this.stopped) return;
          if (failures > 0) {
            this.settings.logger.info({ after, attempts: failures }, 'eventstoredb $all subscription resumed');
            failures = 0;
          }
          const fresh = received.filter((event) => comparePositions(event.position, after) === 1);
          if (fresh.length === 0) continue;
          const delivered = fresh.filter((event) => !isSystemEvent(event) && (!filterTypes || filterTypes(event.type)));
          if (delivered.length > 0) await this.deliver(delivered);
          after = fresh[fresh.length - 1].position;
          if (this.stopped) return;
        }
      } catch (error) {
        if (error instanceof HandlerFailure) throw error.cause;
        if (this.stopped || error instanceof FeedClosedError) return;
        if (!(error instanceof FeedDroppedError) || isPermanentClientError(error.cause)) throw error;
        failures++;
        const delayMs = backoffDelay(failures, this.settings.backoff ?? DEFAULT_BACKOFF, this.settings.random);
        this.settings.logger.warn(
          { err: error.cause, after, attempt: failures, delayMs },
          'eventstoredb $all subscription dropped; resubscribing after the last handled position',
        );
        await feed.close();
        await this.wait(delayMs);
      } finally {
        await feed.close();
        this.feed = null;
      }
    }
  }

  private async deliver(events: RecordedEvent[]): Promise<void> {
    try {
      await this.handler(events);
    } catch (error) {
      throw new HandlerFailure(error);
    }
  }

  private async wait(ms: number): Promise<void> {
    if (this.stopped) return;
    const pause = (this.settings.pause ?? timerPause)(ms);
    this.pausing = pause;
    await pause.promise;
    this.pausing = null;
  }
}
