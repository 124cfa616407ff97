import type { Logger } from 'pino';
import type { DataSource } from 'typeorm';
import type { EventStore, RecordedEvent, Subscription } from '../../event-store/event-store.port';
import { START, type Position } from '../../event-store/position';
import type { ReadModelGeneration } from '../../platform/database/platform.entities';
import { readCheckpoint } from './apply-batch';
import { handledEvents, type BatchApplier } from './batch-applier';
import { errorText } from '../../subscriptions/dead-letters';
import type { Projection } from '../projection';
import { applyEventByEvent } from '../../subscriptions/quarantine';
import type { ReadModelRegistry } from '../generations/read-model-registry';
import { releaseReadSnapshot } from './read-snapshot';
import type { CatchUpWaiters } from '../../subscriptions/catch-up-waiters';
import { isTransientFailure } from '../../subscriptions/transient-failure';

/** The generation the loop works on, as the generation switch holds it open. */
export interface OpenHandles {
  readonly generation: ReadModelGeneration | null;
  readonly reader: DataSource | null;
  readonly applier: BatchApplier | null;
}

/** What the loop asks of the runner that composes it. */
export interface LoopSteps {
  stopped(): boolean;
  leader(): boolean;
  /** After the position moved: a building generation that caught up becomes active. */
  caughtUp(): Promise<void>;
}

const PERSIST_IDLE_CHECKPOINT_MS = 1000;
const RETRY_MS = 1000;
/** How often a follower looks whether the leader's commit has covered the events it waits for. */
const FOLLOW_POLL_MS = 20;

/**
 * The hot path of a read model: subscribes to the log from the checkpoint and, as the leader,
 * applies each batch with the checkpoint in one transaction (gathering the next one a moment under
 * load), sets aside an event it cannot apply, retries from the checkpoint after a failure, and
 * stores the checkpoint of idle batches now and then; as a follower, waits for the leader's commit
 * to cover each batch. Its own part so that nothing about leases or generations sits in the loop.
 */
export class ApplyLoop {
  position: Position = START;
  /** the subscription failed: the loop retries from its checkpoint */
  failed = false;
  error: string | null = null;
  private subscription: Subscription | null = null;
  private lastPersist = 0;
  private unsaved = false;
  private idleSave: NodeJS.Timeout | null = null;
  private retry: NodeJS.Timeout | null = null;
  /** Ends the pause between batches (gather), while one lasts. */
  private gathering: (() => void) | null = null;
  private readonly listeners = new Set<(batch: RecordedEvent[]) => void>();

  constructor(
    private readonly projection: Projection,
    private readonly store: EventStore,
    private readonly registry: ReadModelRegistry,
    private readonly logger: Logger,
    private readonly maxBatchSize: number,
    private readonly open: OpenHandles,
    private readonly tracker: CatchUpWaiters,
    private readonly steps: LoopSteps,
    /** Where batches come from: the process's one reader of the log (subscriptions/log-feed.ts), or the store itself. */
    private readonly log: Pick<EventStore, 'subscribeToAll'> = store,
  ) {}

  /** See ProjectionRunner.onApplied. */
  onApplied(listener: (batch: RecordedEvent[]) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Someone waits for this read model: apply what the log holds now, not after the gathering pause, nor lazily. */
  hurry(): void {
    this.gathering?.();
    this.subscription?.nudge();
  }

  /** Starts on a generation just opened, from its checkpoint. */
  async begin(): Promise<void> {
    this.position = await readCheckpoint(this.open.reader!, this.projection.name);
    this.failed = false;
    this.error = null;
    this.subscribe();
  }

  /** Starts again from the stored checkpoint (after a failure, or as a leader turned follower). */
  async resume(): Promise<void> {
    if (this.steps.stopped() || !this.open.reader || !this.open.generation) return;
    releaseReadSnapshot(this.open.reader);
    this.position = await readCheckpoint(this.open.reader, this.projection.name);
    this.failed = false;
    this.error = null;
    this.subscribe();
    await this.steps.caughtUp();
  }

  /** resume(), and when the database cannot answer now (a restart), again in a moment until it can. */
  async resumeOrRetry(): Promise<void> {
    try {
      await this.resume();
    } catch (error) {
      this.failed = true;
      this.error = error instanceof Error ? error.message : String(error);
      this.logger.warn({ err: error, projection: this.projection.name }, 'projection could not resume; retrying');
      this.scheduleRetry();
    }
  }

  /** Stops the subscription alone: what it applied stays, the next start goes on from the checkpoint. */
  async unsubscribe(): Promise<void> {
    const subscription = this.subscription;
    this.subscription = null;
    await subscription?.stop();
  }

  /** Stopping: a pause between batches ends now, and no retry comes. */
  interrupt(): void {
    this.gathering?.();
    if (this.retry) clearTimeout(this.retry);
  }

  /** Lets go of the generation: no retry, no idle save, no subscription. */
  async halt(): Promise<void> {
    if (this.retry) clearTimeout(this.retry);
    if (this.idleSave) clearTimeout(this.idleSave);
    this.retry = null;
    this.idleSave = null;
    await this.unsubscribe();
  }

  private subscribe(): void {
    const apply = this.steps.leader();
    // The other events only move its position: they may come lazily (event-store.port.ts, wakeFor).
    const wakeFor = (type: string) => Object.hasOwn(this.projection.handles, type);
    const subscription = this.log.subscribeToAll(
      { after: this.position, maxBatchSize: this.maxBatchSize, wakeFor },
      (batch) => (apply ? this.onBatch(batch) : this.onFollowedBatch(batch)),
    );
    this.subscription = subscription;
    subscription.done.catch((error: unknown) => {
      if (this.steps.stopped() || this.subscription !== subscription) return;
      this.failed = true;
      this.error = error instanceof Error ? error.message : String(error);
      this.logger.error(
        { err: error, projection: this.projection.name },
        'projection failed; retrying from its checkpoint',
      );
      this.scheduleRetry();
    });
  }

  private scheduleRetry(): void {
    if (this.steps.stopped()) return;
    if (this.retry) clearTimeout(this.retry);
    this.retry = setTimeout(() => {
      this.retry = null;
      this.resume().catch((error: unknown) => {
        this.error = error instanceof Error ? error.message : String(error);
        this.logger.error({ err: error, projection: this.projection.name }, 'projection could not resume; retrying');
        this.scheduleRetry();
      });
    }, RETRY_MS);
  }

  private async onBatch(batch: RecordedEvent[]): Promise<void> {
    const last = batch[batch.length - 1].position;
    const handled = handledEvents(this.projection, batch);
    const now = Date.now();
    const applier = this.open.applier!;
    // Batches with nothing to apply only move the stored checkpoint now and then (replaying them
    // after a restart costs a read, never a wrong row); a timer stores the last one when idle.
    const applying = handled.length > 0 || now - this.lastPersist > PERSIST_IDLE_CHECKPOINT_MS;
    if (applying) {
      try {
        await applier.apply(handled, last);
      } catch (error) {
        // the fast path stays one transaction; only a batch that failed is taken apart
        if (this.steps.stopped() || handled.length === 0 || isTransientFailure(error)) throw error;
        await this.applyEventByEvent(applier, handled, last);
      }
      this.lastPersist = now;
      this.unsaved = false;
    } else {
      this.unsaved = true;
      this.idleSave ??= setTimeout(() => void this.saveIdleCheckpoint(), PERSIST_IDLE_CHECKPOINT_MS);
    }
    // what this turn's lookups read from here on includes the batch (read-snapshot.ts)
    if (applying && this.open.reader) releaseReadSnapshot(this.open.reader);
    this.position = last;
    for (const listener of this.listeners) listener(batch);
    await this.steps.caughtUp();
    this.tracker.release();
    if (applying && applier.gatherMs > 0) await this.gather(now + applier.gatherMs);
  }

  /**
   * A batch failed for a reason that is not the database's: apply its events one by one, and
   * dead-letter the one(s) the projection cannot apply, so one bad event (of any tenant) never
   * stops this read model for the others. Read-your-writes waiters for positions past it wake:
   * the read model has passed them, without that event's change (docs/dead-letters.md).
   */
  private async applyEventByEvent(applier: BatchApplier, events: RecordedEvent[], last: Position): Promise<void> {
    const { name, version } = this.projection;
    await applyEventByEvent(events, last, {
      applyOne: (event) => applier.apply([event], event.position),
      saveCheckpoint: (position) => applier.saveCheckpoint(position),
      stopped: () => this.steps.stopped(),
      deadLetter: async (event, error, attempts) => {
        const generation = this.open.generation?.generation ?? null;
        await this.registry.deadLetters.record({
          kind: 'projection',
          name,
          version,
          generation,
          event,
          error,
          attempts,
        });
        // where and what, never the event's data (it may hold secrets)
        this.logger.error(
          {
            projection: name,
            version,
            generation,
            position: event.position,
            streamId: event.streamId,
            eventId: event.id,
            eventType: event.type,
            error: errorText(error),
          },
          'dead-lettered an event the read model cannot apply; skipping it (npm run projections -- dead-letters)',
        );
      },
    });
  }

  /**
   * Lets the next batch gather until `until` (the subscription reads whatever the log holds by
   * then): under load, one transaction carries many events, and a page a dozen batches would each
   * have written to the WAL is written once. Cut short the moment anyone waits for this read model.
   */
  private async gather(until: number): Promise<void> {
    const pause = until - Date.now();
    if (pause <= 0 || this.tracker.waiting || this.steps.stopped()) return;
    await new Promise<void>((resolve) => {
      const timer = setTimeout(done, pause);
      function done() {
        clearTimeout(timer);
        resolve();
      }
      this.gathering = done;
    });
    this.gathering = null;
  }

  /**
   * A follower's batch: the leader applies it; this process waits until the leader's commit covers
   * the last event this projection handles in it (shared checkpoint), then moves on as if it had
   * applied it: caches invalidate, read-your-writes waiters wake. Batches with nothing for this
   * projection change nothing it serves, so they need no wait.
   */
  private async onFollowedBatch(batch: RecordedEvent[]): Promise<void> {
    let needed: Position | null = null;
    for (const event of batch) if (this.projection.handles[event.type]) needed = event.position;
    while (needed !== null && !this.steps.stopped() && !this.steps.leader() && this.open.reader) {
      releaseReadSnapshot(this.open.reader);
      if ((await readCheckpoint(this.open.reader, this.projection.name)) >= needed) break;
      await new Promise((resolve) => setTimeout(resolve, FOLLOW_POLL_MS));
    }
    if (this.steps.stopped() || this.steps.leader()) return;
    if (this.open.reader) releaseReadSnapshot(this.open.reader);
    this.position = batch[batch.length - 1].position;
    for (const listener of this.listeners) listener(batch);
    this.tracker.release();
  }

  /** The checkpoint of idle batches, stored a moment after the last (and when stopping). */
  async saveIdleCheckpoint(): Promise<void> {
    this.idleSave = null;
    if (!this.unsaved || !this.open.applier) return;
    try {
      await this.open.applier.saveCheckpoint(this.position);
      this.lastPersist = Date.now();
      this.unsaved = false;
    } catch (error) {
      this.logger.warn({ err: error, projection: this.projection.name }, 'could not store an idle checkpoint');
    }
  }
}
