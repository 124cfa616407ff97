import type { Logger } from 'pino';
import type { DataSource } from 'typeorm';
import type { EventStore, RecordedEvent, Subscription } from '../event-store/event-store.port';
import { comparePositions, START, type Position } from '../event-store/position';
import type { ReadModelGeneration } from '../platform/database/platform.entities';
import { readCheckpoint } from './apply-batch';
import { handledEvents, InlineApplier, type BatchApplier } from './batch-applier';
import type { OpenGeneration } from './generation-storage';
import { holds, type Lease } from './postgres/advisory-lease';
import { GenerationNotBuiltError } from './generation-not-built';
import type { Projection } from './projection';
import { releaseReadSnapshot } from './read-snapshot';
import type { ReadModelRegistry } from './read-model-registry';
import type { ApplyThread } from './thread-applier';
import { errorText } from './dead-letters';
import { applyEventByEvent } from './quarantine';
import { isTransientFailure } from './transient-failure';

export interface RunnerStatus {
  name: string;
  version: number;
  generation: number | null;
  state: 'starting' | 'building' | 'serving' | 'failed' | 'stopped';
  /** `follower`: another process holds the lease and applies; this one serves reads and tracks its checkpoint. */
  role: 'leader' | 'follower';
  position: Position;
  error: string | null;
}

interface Waiter {
  target: Position;
  resolve(): void;
}

const PERSIST_IDLE_CHECKPOINT_MS = 1000;
const RETRY_MS = 1000;
const WATCH_MS = 1000;
/** How often a follower tries to take a free lease: a dead leader is replaced within about this long. */
const LEASE_RETRY_MS = 2000;
/** How often a follower looks whether the leader's commit has covered the events it waits for. */
const FOLLOW_POLL_MS = 20;

/**
 * Keeps one read model up to date: subscribes to the log from its checkpoint, applies each batch
 * with the checkpoint in one transaction, builds a missing generation from the start and activates
 * it when caught up, and follows a switch made by another process (the `rebuild` command).
 */
export class ProjectionRunner {
  /** Where this process applies batches (the leader), null while it only follows. */
  private applier: BatchApplier | null = null;
  private reader: DataSource | null = null;
  private opened: OpenGeneration | null = null;
  private generation: ReadModelGeneration | null = null;
  private subscription: Subscription | null = null;
  private position: Position = START;
  private state: RunnerStatus['state'] = 'starting';
  private error: string | null = null;
  private lastPersist = 0;
  private waiters = new Set<Waiter>();
  /** Ends the pause between batches (gather), while one lasts. */
  private gathering: (() => void) | null = null;
  private listeners = new Set<(batch: RecordedEvent[]) => void>();
  private watch: NodeJS.Timeout | null = null;
  private retry: NodeJS.Timeout | null = null;
  private idleSave: NodeJS.Timeout | null = null;
  private unsaved = false;
  private switching: Promise<void> = Promise.resolve();
  private stopped = false;
  private role: RunnerStatus['role'] = 'leader';
  private leaseTimer: NodeJS.Timeout | null = null;

  constructor(
    readonly projection: Projection,
    private readonly store: EventStore,
    private readonly registry: ReadModelRegistry,
    private readonly logger: Logger,
    /** Where several processes share the read models: the lease that picks the one applying them. */
    private readonly lease: Lease | null = null,
    private readonly maxBatchSize = 1000,
    /** SQLite: where the app's own projections are applied, beside the event loop (thread-applier.ts). */
    private readonly applyThread: ApplyThread | null = null,
  ) {}

  async start(): Promise<void> {
    if (this.lease) {
      this.lease.onLost(() => void this.demote());
      this.role = (await this.tryLease()) ? 'leader' : 'follower';
      this.leaseTimer = setInterval(() => void this.contend(), LEASE_RETRY_MS);
      this.leaseTimer.unref();
    }
    // A follower that starts before its leader created the generation attaches it later (followSwitch).
    if (this.role === 'leader') await this.attach(await this.generationToApply());
    else await this.tryFollow();
    if (this.role === 'leader') await this.deleteRetiredFiles();
    this.watch = setInterval(() => void this.followSwitch(), WATCH_MS);
    this.watch.unref();
  }

  /**
   * The generation this leader applies: the active one, else the one building, else a new one. A
   * generation whose checkpoint is past the log's head has applied events this log does not hold
   * (an event log restored from an older backup, or read models from another deployment): it
   * would wait for positions that already hold other events, and skip them. It is built again from
   * the log: this process answers READ_MODEL_BUILDING until the new generation has caught up and
   * replaces it, as after a schema change, and a restart meanwhile goes on with that build.
   */
  private async generationToApply(): Promise<ReadModelGeneration> {
    const { name, version } = this.projection;
    const active = await this.registry.active(name, version);
    const building = await this.registry.building(name, version);
    // the checkpoints first: the head only moves on, so a consistent pair never looks ahead
    const checkpoints = await Promise.all([active, building].map((g) => (g ? this.registry.storage.checkpointOf(name, g.file) : START)));
    const head = await this.store.headPosition();
    const [activeAhead, buildingAhead] = checkpoints.map((checkpoint) => comparePositions(checkpoint, head) > 0);
    if (active && !activeAhead) return active;
    if (active) {
      this.logger.error(
        { projection: name, version, generation: active.generation, checkpoint: checkpoints[0], head },
        'the read model has applied events past the end of the event log (a log restored from an older backup, or read models of another deployment): building it again from the log',
      );
    }
    if (building && !buildingAhead) return building;
    if (building) {
      // a build that is itself ahead of the log has no use
      this.logger.error({ projection: name, version, generation: building.generation, checkpoint: checkpoints[1], head }, 'a read model being built has applied events past the end of the event log: starting it again from the log');
      await this.registry.retire(name, version, building.generation);
    }
    return this.registry.create(name, version, new Date().toISOString());
  }

  private async generationToFollow(): Promise<ReadModelGeneration | null> {
    const { name, version } = this.projection;
    return (await this.registry.active(name, version)) ?? (await this.registry.building(name, version));
  }

  /** A follower attaches the generation its leader applies, once the leader has created it. */
  private async tryFollow(): Promise<void> {
    const generation = await this.generationToFollow();
    if (!generation) return;
    try {
      await this.attach(generation);
    } catch (error) {
      if (!(error instanceof GenerationNotBuiltError)) throw error;
    }
  }

  private tryLease(): Promise<boolean> {
    return holds(this.lease, (error) => this.logger.warn({ err: error, projection: this.projection.name }, 'could not try the projection lease; following for now'));
  }

  /** A follower takes a lease its holder let go (stopped, or died): it applies from the checkpoint on. */
  private contend(): Promise<void> {
    this.switching = this.switching.then(async () => {
      if (this.stopped || this.role === 'leader' || !(await this.tryLease())) return;
      this.role = 'leader';
      this.logger.info({ projection: this.projection.name }, 'took the projection lease: applying here');
      // what a follower opened, it opened to read: open the generation again to apply it
      await this.detach();
      await this.attach(await this.generationToApply());
      await this.deleteRetiredFiles();
    }).catch((error: unknown) => {
      this.logger.error({ err: error, projection: this.projection.name }, 'could not take over the projection');
    });
    return this.switching;
  }

  /** The lease is gone (its connection failed): stop applying at once, and follow whoever takes it. */
  private demote(): Promise<void> {
    this.switching = this.switching.then(async () => {
      if (this.stopped || this.role === 'follower') return;
      this.role = 'follower';
      this.logger.warn({ projection: this.projection.name }, 'lost the projection lease: following');
      const subscription = this.subscription;
      this.subscription = null;
      await subscription?.stop();
      if (this.generation) await this.resume();
    }).catch((error: unknown) => {
      this.logger.error({ err: error, projection: this.projection.name }, 'could not step down as the projection leader');
    });
    return this.switching;
  }

  /** Generations a rebuild replaced while no server ran to delete them on its switch. */
  private async deleteRetiredFiles(): Promise<void> {
    for (const old of await this.registry.retired(this.projection.name)) await this.registry.storage.remove(old.file);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.gathering?.();
    if (this.watch) clearInterval(this.watch);
    if (this.leaseTimer) clearInterval(this.leaseTimer);
    if (this.retry) clearTimeout(this.retry);
    await this.switching;
    await this.subscription?.stop();
    if (this.role === 'leader') await this.saveIdleCheckpoint();
    await this.detach();
    await this.lease?.release();
    this.state = 'stopped';
  }

  /**
   * The serving (read-only) data source, or null while the first generation of this version is
   * building. A failed runner keeps serving what it last committed while it retries.
   */
  get dataSource(): DataSource | null {
    return this.generation?.status === 'active' ? this.reader : null;
  }

  status(): RunnerStatus {
    const { name, version } = this.projection;
    return { name, version, generation: this.generation?.generation ?? null, state: this.state, role: this.role, position: this.position, error: this.error };
  }

  /**
   * Called after each batch is committed and before read-your-writes waiters wake: in-process
   * caches over this read model invalidate here, so a response that waited sees fresh data.
   */
  onApplied(listener: (batch: RecordedEvent[]) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Resolves once this read model serves and has applied everything up to `target`. */
  waitFor(target: Position): { promise: Promise<void>; cancel(): void } {
    if (this.reached(target)) return { promise: Promise.resolve(), cancel: () => undefined };
    let waiter!: Waiter;
    const promise = new Promise<void>((resolve) => (waiter = { target, resolve }));
    this.waiters.add(waiter);
    // someone waits for this read model: apply what the log holds now, not after the gathering
    // pause, nor lazily when the events up to the target are none of this read model's
    this.gathering?.();
    this.subscription?.nudge();
    return { promise, cancel: () => this.waiters.delete(waiter) };
  }

  private reached(target: Position): boolean {
    return this.generation?.status === 'active' && this.position >= target;
  }

  private async attach(generation: ReadModelGeneration): Promise<void> {
    const leader = this.role === 'leader';
    if (leader && this.applyThread && this.registry.storage.kind === 'sqlite' && this.applyThread.accepts(this.projection)) {
      // the thread creates a missing file, then this process only reads it
      this.applier = await this.applyThread.open(this.projection, generation.file);
      this.opened = await this.registry.storage.open(this.projection, generation.file, 'follow');
    } else {
      this.opened = await this.registry.storage.open(this.projection, generation.file, leader ? 'apply' : 'follow');
      this.applier = leader ? new InlineApplier(this.opened.writer, this.projection) : null;
    }
    this.reader = this.opened.reader;
    this.generation = generation;
    this.position = await readCheckpoint(this.reader, this.projection.name);
    this.state = generation.status === 'active' ? 'serving' : 'building';
    this.error = null;
    this.subscribe();
    // Nothing to catch up on (an empty log): no batch will come to tell us, so look now.
    await this.activateIfCaughtUp();
  }

  private subscribe(): void {
    const apply = this.role === 'leader';
    // The other events only move its position: they may come lazily (event-store.port.ts, wakeFor).
    const wakeFor = (type: string) => Object.hasOwn(this.projection.handles, type);
    const subscription = this.store.subscribeToAll({ after: this.position, maxBatchSize: this.maxBatchSize, wakeFor }, (batch) =>
      apply ? this.onBatch(batch) : this.onFollowedBatch(batch),
    );
    this.subscription = subscription;
    subscription.done.catch((error: unknown) => {
      if (this.stopped || this.subscription !== subscription) return;
      this.state = 'failed';
      this.error = error instanceof Error ? error.message : String(error);
      this.logger.error({ err: error, projection: this.projection.name }, 'projection failed; retrying from its checkpoint');
      this.scheduleRetry();
    });
  }

  private scheduleRetry(): void {
    if (this.stopped) return;
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

  private async resume(): Promise<void> {
    if (this.stopped || !this.reader || !this.generation) return;
    releaseReadSnapshot(this.reader);
    this.position = await readCheckpoint(this.reader, this.projection.name);
    this.state = this.generation.status === 'active' ? 'serving' : 'building';
    this.error = null;
    this.subscribe();
    await this.activateIfCaughtUp();
  }

  private async onBatch(batch: RecordedEvent[]): Promise<void> {
    const last = batch[batch.length - 1].position;
    const handled = handledEvents(this.projection, batch);
    const now = Date.now();
    const applier = this.applier!;
    // Batches with nothing to apply only move the stored checkpoint now and then (replaying them
    // after a restart costs a read, never a wrong row); a timer stores the last one when idle.
    const applying = handled.length > 0 || now - this.lastPersist > PERSIST_IDLE_CHECKPOINT_MS;
    if (applying) {
      try {
        await applier.apply(handled, last);
      } catch (error) {
        // the fast path stays one transaction; only a batch that failed is taken apart
        if (this.stopped || handled.length === 0 || isTransientFailure(error)) throw error;
        await this.applyEventByEvent(applier, handled, last);
      }
      this.lastPersist = now;
      this.unsaved = false;
    } else {
      this.unsaved = true;
      this.idleSave ??= setTimeout(() => void this.saveIdleCheckpoint(), PERSIST_IDLE_CHECKPOINT_MS);
    }
    // what this turn's lookups read from here on includes the batch (read-snapshot.ts)
    if (applying && this.reader) releaseReadSnapshot(this.reader);
    this.position = last;
    for (const listener of this.listeners) listener(batch);
    await this.activateIfCaughtUp();
    this.wake();
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
      stopped: () => this.stopped,
      deadLetter: async (event, error, attempts) => {
        const generation = this.generation?.generation ?? null;
        await this.registry.deadLetters.record({ kind: 'projection', name, version, generation, event, error, attempts });
        // where and what, never the event's data (it may hold secrets)
        this.logger.error(
          { projection: name, version, generation, position: event.position, streamId: event.streamId, eventId: event.id, eventType: event.type, error: errorText(error) },
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
    if (pause <= 0 || this.waiters.size > 0 || this.stopped) return;
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
    while (needed !== null && !this.stopped && this.role === 'follower' && this.reader) {
      releaseReadSnapshot(this.reader);
      if ((await readCheckpoint(this.reader, this.projection.name)) >= needed) break;
      await new Promise((resolve) => setTimeout(resolve, FOLLOW_POLL_MS));
    }
    if (this.stopped || this.role !== 'follower') return;
    if (this.reader) releaseReadSnapshot(this.reader);
    this.position = batch[batch.length - 1].position;
    for (const listener of this.listeners) listener(batch);
    this.wake();
  }

  private async saveIdleCheckpoint(): Promise<void> {
    this.idleSave = null;
    if (!this.unsaved || !this.applier) return;
    try {
      await this.applier.saveCheckpoint(this.position);
      this.lastPersist = Date.now();
      this.unsaved = false;
    } catch (error) {
      this.logger.warn({ err: error, projection: this.projection.name }, 'could not store an idle checkpoint');
    }
  }

  /** A building generation that has reached the head of the log becomes the serving one. */
  private async activateIfCaughtUp(): Promise<void> {
    if (this.role !== 'leader' || this.state !== 'building' || !this.generation) return;
    if (this.position < (await this.store.headPosition())) return;
    // A rebuild elsewhere may have activated a newer generation meanwhile: follow it instead.
    const active = await this.registry.active(this.projection.name, this.projection.version);
    if (active && active.generation > this.generation.generation) return;
    await this.registry.activate(this.projection.name, this.projection.version, this.generation.generation, new Date().toISOString());
    await this.registry.deadLetters.resolveSuperseded(this.projection.name, this.generation.generation);
    this.generation = { ...this.generation, status: 'active' };
    this.state = 'serving';
    this.logger.info({ projection: this.projection.name, generation: this.generation.generation }, 'read model built and serving');
    this.wake();
  }

  private wake(): void {
    for (const waiter of [...this.waiters]) {
      if (this.reached(waiter.target)) {
        this.waiters.delete(waiter);
        waiter.resolve();
      }
    }
  }

  /**
   * Another process activated a newer generation (rebuild): serve from it. A follower also learns
   * here that the generation it follows was created, or became active.
   */
  private followSwitch(): Promise<void> {
    this.switching = this.switching.then(async () => {
      if (this.stopped) return;
      if (!this.generation || !this.opened) {
        if (this.role === 'follower') await this.tryFollow();
        return;
      }
      const active = await this.registry.watchedActive(this.projection.name, this.projection.version);
      if (!active) return;
      if (active.generation === this.generation.generation) {
        if (this.generation.status !== 'active') {
          this.generation = { ...this.generation, status: 'active' };
          if (this.state === 'building') this.state = 'serving';
          this.wake();
        }
        return;
      }
      if (active.generation < this.generation.generation) return;
      const old = this.generation;
      await this.detach();
      // the leader retires and deletes what it replaced; a follower only lets go of it
      if (this.role === 'leader' && old.status === 'building') await this.registry.retire(old.name, old.version, old.generation);
      await this.attach(active);
      if (this.role === 'leader') await this.registry.storage.remove(old.file);
      this.logger.info({ projection: this.projection.name, generation: active.generation }, 'switched to a rebuilt generation');
      this.wake();
    }).catch((error: unknown) => {
      this.logger.error({ err: error, projection: this.projection.name }, 'could not follow a generation switch');
    });
    return this.switching;
  }

  private async detach(): Promise<void> {
    if (this.retry) clearTimeout(this.retry);
    if (this.idleSave) clearTimeout(this.idleSave);
    this.retry = null;
    this.idleSave = null;
    const subscription = this.subscription;
    this.subscription = null;
    await subscription?.stop();
    const applier = this.applier;
    this.applier = null;
    try {
      await applier?.close();
    } catch (error) {
      // a thread that died took the file's connection with it: there is nothing left to close
      this.logger.warn({ err: error, projection: this.projection.name }, 'could not close the read model writer');
    }
    const opened = this.opened;
    this.opened = null;
    await opened?.close();
    this.reader = null;
  }
}
