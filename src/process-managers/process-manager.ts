import type { Logger } from 'pino';
import type { DataSource } from 'typeorm';
import type { EventStore, RecordedEvent, Subscription } from '../event-store/event-store.port';
import { START, type Position } from '../event-store/position';
import { ProcessCheckpoint } from '../platform/database/platform.entities';
import { CatchUpWaiters } from '../subscriptions/catch-up-waiters';
import { LeaseCoordinator } from '../subscriptions/lease-coordinator';
import type { Lease } from '../subscriptions/lease-session';
import { processCheckpointSaver, type SaveProcessCheckpoint } from './process-checkpoint-store';
import { isReadModelLagging } from '../read-models/failures/read-model-lagging';
import { DeadLetterStore, errorText } from '../subscriptions/dead-letters';
import { POISON_ATTEMPTS, POISON_PAUSE_MS } from '../subscriptions/quarantine';
import { isTransientFailure } from '../subscriptions/transient-failure';
import { loopTurns } from './loop-turns';

/**
 * Reacts to events by doing things: sending commands, scheduling timers, queueing deliveries.
 * Its effects cannot share a transaction with its checkpoint, so each handler must be idempotent
 * for an event it has seen (derive event ids and timer ids from the triggering event's id): after
 * a crash the events past the checkpoint run again and their effects collapse into one.
 */
export interface ProcessManager {
  name: string;
  /**
   * `never`: a handler typed for its own event's data fits here. The runner looks a handler up by
   * the event's type (as it does before `wants` and `partitionBy`), so each sees only its own events.
   */
  handles: Record<string, (event: RecordedEvent<never>) => Promise<void>>;
  /**
   * Optional: of the events of a handled type, only those it wants reach a handler. A manager that
   * acts on a few events of a common type (one channel's turns) then neither runs for the rest nor
   * writes its checkpoint for batches of them alone.
   */
  wants?: (event: RecordedEvent<never>) => boolean;
  /**
   * Optional: events of a batch with different keys are handled concurrently (same key: in log
   * order), so independent slow effects (appends to different streams) share group commits.
   */
  partitionBy?: (event: RecordedEvent<never>) => string;
  /** Optional: holds the manager back while the work it follows is busy (src/external-events/bind-pacer.ts). */
  pace?: Pace;
  /**
   * Optional: the most events per batch (default 200). With `partitionBy` a batch's handlers run
   * concurrently, a few started per turn of the event loop: this bounds how many are in flight at
   * once.
   */
  maxBatchSize?: number;
  /**
   * Optional: told once an event of this manager is dead-lettered, so a workflow waiting on it can
   * record that it will not come (a test run marks the case failed rather than stay `running`).
   * Its own failure is logged, never thrown: the event is already set aside.
   */
  onDeadLetter?: (event: RecordedEvent<never>, error: unknown) => Promise<void>;
  /**
   * Optional: a manager new to an installation (no checkpoint yet) starts at the log's head rather
   * than its start, for work that is not owed to history (post-call analysis: on a large log with a
   * model, a model call for every conversation ever ended).
   */
  startsAtHead?: boolean;
  /**
   * Optional: false for a manager whose effects no read waits for (post-call analysis, whose model
   * call may take seconds): ProcessManagers.caughtUpWithLog, which a read of a conversation not in
   * the log yet and the test clock's advance wait on, does not wait for it.
   */
  awaitedByReads?: boolean;
}

/** An event handed to its type's handler: the lookup by type is what makes it that handler's. */
const routed = (event: RecordedEvent): RecordedEvent<never> => event as RecordedEvent<never>;

/** Paces a manager: asked before each batch it acts on. */
export interface Pace {
  /** Milliseconds to wait before handling this batch; 0 to go ahead. Asked again after each wait (at most PACE_STEP_MS). */
  delayMs(batch: RecordedEvent[]): number;
}

/** A paced manager looks again this often: a wait ends soon after the pressure does. */
const PACE_STEP_MS = 20;

/**
 * How many of a partitioned batch's handlers start in one turn of the event loop: few enough that a
 * request waits behind little, enough that their appends share a group commit.
 */
const HANDLER_STARTS_PER_TURN = 4;

const RETRY_MS = 1000;
const IDLE_CHECKPOINT_MS = 5000;
/**
 * Where processes share the manager (a lease), how soon after a batch it had nothing to do for
 * its checkpoint is stored anyway: the other processes read it to know how far it has reacted
 * (followed-checkpoints.ts), and a read through them waits on that.
 */
const SHARED_CHECKPOINT_MS = 100;
/** How often the manager looks for dead letters an operator asked to retry (`npm run projections -- retry`). */
const DEAD_LETTER_RETRY_POLL_MS = 2000;

export class ProcessManagerRunner {
  private subscription: Subscription | null = null;
  private retry: NodeJS.Timeout | null = null;
  private stopped = false;
  private savedAt = 0;
  private started = false;
  /** the position stored last, and the trailing save of one not stored yet (shared managers only) */
  private savedPosition: Position = START;
  private trailingSave: NodeJS.Timeout | null = null;
  private readonly shared: boolean;
  private readonly saveCheckpointRow: SaveProcessCheckpoint;
  private readonly lease: LeaseCoordinator;
  /** Taking and losing the lease, one after another. */
  private switching: Promise<void> = Promise.resolve();
  private retryPoll: NodeJS.Timeout | null = null;
  private retrying: Promise<void> = Promise.resolve();
  position: Position = START;
  error: string | null = null;
  /** requests waiting until this manager has reacted to the log up to a position (caughtUp) */
  private readonly waiters = new CatchUpWaiters((target) => this.position >= target);

  /** `lease`: where several processes share the platform database, the one that may run this manager. */
  constructor(
    readonly manager: ProcessManager,
    private readonly store: EventStore,
    private readonly platform: DataSource,
    private readonly logger: Logger,
    lease: Lease | null = null,
    private readonly deadLetters: DeadLetterStore = new DeadLetterStore(platform),
    /** The process's one reader of the log (subscriptions/log-feed.ts); else the store, for this manager alone. */
    private readonly log: Pick<EventStore, 'subscribeToAll'> = store,
  ) {
    this.saveCheckpointRow = processCheckpointSaver(platform);
    this.shared = lease !== null;
    const subject = { field: 'processManager', name: manager.name, noun: 'process manager', work: 'running' } as const;
    this.lease = new LeaseCoordinator(lease, subject, logger, {
      serialize: (work, failure) => this.serialize(work, failure),
      stopped: () => this.stopped,
      promote: () => this.run(),
      // effects are idempotent, so the next holder may redo the last batch
      demote: () => this.unsubscribe(),
    });
  }

  /** false while another process holds the manager's lease: it runs there, and this one does nothing. */
  get active(): boolean {
    return this.lease.leader;
  }

  /** Started here and shared, but run by another process (or, a moment, by none): its stored checkpoint says how far it is. */
  get followed(): boolean {
    return this.shared && this.started && !this.stopped && !this.active;
  }

  async start(): Promise<void> {
    this.started = true;
    this.retryPoll = setInterval(() => void this.retryRequested(), DEAD_LETTER_RETRY_POLL_MS);
    this.retryPoll.unref();
    await this.lease.start();
    if (this.active) await this.run();
  }

  private async run(): Promise<void> {
    const row = await this.platform.getRepository(ProcessCheckpoint).findOneBy({ name: this.manager.name });
    if (row) this.position = row.position as Position;
    else if (this.manager.startsAtHead) {
      this.position = await this.store.headPosition();
      // stored at once: a restart before its first batch starts here, not at the head it finds then
      await this.saveCheckpoint();
    } else this.position = START;
    this.subscribe();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.retry) clearTimeout(this.retry);
    if (this.trailingSave) clearTimeout(this.trailingSave);
    this.lease.stop();
    if (this.retryPoll) clearInterval(this.retryPoll);
    await this.retrying;
    await this.switching;
    await this.unsubscribe();
    await this.lease.release();
  }

  private serialize(work: () => Promise<void>, failure: string): Promise<void> {
    this.switching = this.switching.then(work).catch((error: unknown) => {
      this.logger.error({ err: error, processManager: this.manager.name }, failure);
    });
    return this.switching;
  }

  private async unsubscribe(): Promise<void> {
    const subscription = this.subscription;
    this.subscription = null;
    await subscription?.stop();
  }

  private subscribe(): void {
    // Batches of events it has no handler for only move its position: they may come lazily (wakeFor).
    const wakeFor = (type: string) => Object.hasOwn(this.manager.handles, type);
    const subscription = this.log.subscribeToAll(
      { after: this.position, maxBatchSize: this.manager.maxBatchSize ?? 200, wakeFor },
      (batch) => this.onBatch(batch),
    );
    this.subscription = subscription;
    subscription.done.catch((error: unknown) => {
      if (this.stopped || this.subscription !== subscription) return;
      this.error = error instanceof Error ? error.message : String(error);
      // A manager that reads a read model waits for it to pass each event; while that read model
      // is still being built (a new one over a long log) the bounded wait runs out: expected, not a fault.
      if (isReadModelLagging(error))
        this.logger.info(
          { processManager: this.manager.name },
          'process manager waits for a read model to catch up; retrying from its checkpoint',
        );
      else
        this.logger.error(
          { err: error, processManager: this.manager.name },
          'process manager failed; retrying from its checkpoint',
        );
      this.scheduleRestart();
    });
  }

  private scheduleRestart(): void {
    if (this.stopped) return;
    this.retry = setTimeout(() => {
      if (this.stopped || !this.active) return;
      this.run().catch((error: unknown) => {
        this.error = error instanceof Error ? error.message : String(error);
        this.logger.error(
          { err: error, processManager: this.manager.name },
          'process manager could not restart; retrying',
        );
        this.scheduleRestart();
      });
    }, RETRY_MS);
  }

  private async onBatch(batch: RecordedEvent[]): Promise<void> {
    const pace = this.manager.pace;
    const paced = pace !== undefined && batch.some((event) => this.handles(event));
    if (paced) {
      for (let wait = pace.delayMs(batch); wait > 0 && !this.stopped; wait = pace.delayMs(batch)) {
        await new Promise((resolve) => setTimeout(resolve, Math.min(wait, PACE_STEP_MS)));
      }
      // stopping: the checkpoint stays before this batch, so whoever runs next handles it
      if (this.stopped) return;
    }
    let handled = false;
    const partitionBy = this.manager.partitionBy;
    if (partitionBy) {
      const lanes = new Map<string, RecordedEvent[]>();
      for (const event of batch) {
        if (!this.handles(event)) continue;
        const key = partitionBy(routed(event));
        const lane = lanes.get(key);
        if (lane) lane.push(event);
        else lanes.set(key, [event]);
      }
      handled = lanes.size > 0;
      // A batch's handlers start a few to a turn of the event loop: started together, a batch of
      // bindings held the loop for all of their synchronous parts at once; one to a turn, each
      // reached the group commit alone (bench/README.md, "One binding per turn of the event loop").
      const turn = loopTurns(HANDLER_STARTS_PER_TURN);
      await Promise.all(
        [...lanes.values()].map(async (lane) => {
          for (const event of lane) {
            await turn();
            await this.handle(event);
          }
        }),
      );
    } else {
      for (const event of batch) {
        if (!this.handles(event)) continue;
        await this.handle(event);
        handled = true;
      }
    }
    this.position = batch[batch.length - 1].position;
    this.waiters.release();
    // Batches it had nothing to do for move the checkpoint now and then too: otherwise a manager
    // that rarely acts would read the whole log again at every start (14M events on a big install).
    if (handled || Date.now() - this.savedAt > IDLE_CHECKPOINT_MS) await this.saveCheckpoint();
    else if (this.shared) this.saveSoon();
    this.error = null;
  }

  /**
   * One event's reaction. A failure of the world (a database busy, a read model catching up) is
   * thrown: the manager retries from its checkpoint, as it always did. A handler that keeps
   * throwing for this event is tried again a few times (its effects are idempotent), then the
   * event is dead-lettered and passed: one bad event of one tenant never stops the manager for all.
   */
  private async handle(event: RecordedEvent): Promise<void> {
    let failure: unknown = null;
    for (let attempt = 1; attempt <= POISON_ATTEMPTS; attempt++) {
      try {
        await this.manager.handles[event.type](routed(event));
        return;
      } catch (error) {
        if (this.stopped || isTransientFailure(error)) throw error;
        failure = error;
        if (attempt < POISON_ATTEMPTS) await new Promise((resolve) => setTimeout(resolve, POISON_PAUSE_MS * attempt));
      }
    }
    // recorded before the checkpoint passes it: a crash in between meets the event again
    await this.deadLetters.record({
      kind: 'process-manager',
      name: this.manager.name,
      event,
      error: failure,
      attempts: POISON_ATTEMPTS,
    });
    this.logger.error(
      {
        processManager: this.manager.name,
        position: event.position,
        streamId: event.streamId,
        eventId: event.id,
        eventType: event.type,
        error: errorText(failure),
      },
      'dead-lettered an event the process manager cannot handle; skipping it (npm run projections -- dead-letters)',
    );
    if (this.manager.onDeadLetter)
      await this.manager
        .onDeadLetter(routed(event), failure)
        .catch((error: unknown) =>
          this.logger.error(
            { processManager: this.manager.name, position: event.position, error: errorText(error) },
            'the process manager could not record a dead-lettered event in its workflow',
          ),
        );
  }

  /**
   * Dead letters an operator asked to retry (after a fix): each handled again once, here, where
   * the manager's effects can run; resolved when it succeeds, open again with the new error if not.
   */
  retryRequested(): Promise<void> {
    this.retrying = this.retrying
      .then(async () => {
        if (this.stopped || !this.active) return;
        for (const letter of await this.deadLetters.list({
          kind: 'process-manager',
          name: this.manager.name,
          status: 'retry',
        })) {
          if (this.stopped) return;
          try {
            const event = (await this.store.readStream(letter.streamId)).find((e) => e.id === letter.eventId);
            if (!event) throw new Error(`event ${letter.eventId} is no longer in stream ${letter.streamId}`);
            const handler = this.manager.handles[event.type];
            if (handler) await handler(routed(event));
          } catch (error) {
            if (isTransientFailure(error)) throw error;
            await this.deadLetters.retryFailed(letter.kind, letter.name, letter.position, error);
            this.logger.error(
              {
                processManager: this.manager.name,
                position: letter.position,
                eventType: letter.eventType,
                error: errorText(error),
              },
              'a dead letter failed again on retry; it stays open',
            );
            continue;
          }
          await this.deadLetters.resolve(letter.kind, letter.name, letter.position);
          this.logger.info(
            { processManager: this.manager.name, position: letter.position, eventType: letter.eventType },
            'a dead letter was retried and handled',
          );
        }
      })
      .catch((error: unknown) => {
        this.logger.warn(
          { err: error, processManager: this.manager.name },
          'could not retry dead letters now; trying again shortly',
        );
      });
    return this.retrying;
  }

  /**
   * Resolves once this manager has reacted to every event up to `target` (at once when it has,
   * or when it runs in another process or keeps failing: then nothing here will move it; see
   * ProcessManagers.caughtUpWith for the other process's). The
   * caller bounds the wait; `cancel` drops a waiter whose caller gave up.
   */
  caughtUp(target: Position): { promise: Promise<void>; cancel(): void } {
    if (!this.active || this.error !== null || this.position >= target)
      return { promise: Promise.resolve(), cancel: () => undefined };
    const wait = this.waiters.wait(target);
    // someone waits: deliver what the log holds now rather than lazily (wakeFor)
    this.subscription?.nudge();
    return wait;
  }

  private handles(event: RecordedEvent): boolean {
    return (
      this.manager.handles[event.type] !== undefined &&
      (this.manager.wants === undefined || this.manager.wants(routed(event)))
    );
  }

  private async saveCheckpoint(): Promise<void> {
    this.savedAt = Date.now();
    const position = this.position;
    await this.saveCheckpointRow(this.manager.name, position, new Date().toISOString());
    if (position > this.savedPosition) this.savedPosition = position;
  }

  /** Stores the position a moment from now, once for however many batches come meanwhile. */
  private saveSoon(): void {
    if (this.trailingSave) return;
    this.trailingSave = setTimeout(() => {
      this.trailingSave = null;
      if (this.stopped || !this.active || this.position <= this.savedPosition) return;
      this.saveCheckpoint().catch((error: unknown) =>
        this.logger.warn({ err: error, processManager: this.manager.name }, 'could not store a checkpoint'),
      );
    }, SHARED_CHECKPOINT_MS);
    this.trailingSave.unref();
  }
}
