import type { Logger } from 'pino';
import type { DataSource } from 'typeorm';
import type { EventStore, RecordedEvent } from '../event-store/event-store.port';
import type { Position } from '../event-store/position';
import type { ReadModelGeneration } from '../platform/database/platform.entities';
import { ApplyLoop } from './apply/apply-loop';
import { GenerationSwitch } from './generations/generation-switch';
import { LeaseCoordinator, type RunnerRole } from '../subscriptions/lease-coordinator';
import type { Lease } from '../subscriptions/lease-session';
import type { Projection } from './projection';
import type { ReadModelRegistry } from './generations/read-model-registry';
import { CatchUpWaiters } from '../subscriptions/catch-up-waiters';
import type { ApplyThread } from './apply/thread-applier';

export interface RunnerStatus {
  name: string;
  version: number;
  generation: number | null;
  state: 'starting' | 'building' | 'serving' | 'failed' | 'stopped';
  /** `follower`: another process holds the lease and applies; this one serves reads and tracks its checkpoint. */
  role: RunnerRole;
  position: Position;
  error: string | null;
}

/**
 * Keeps one read model up to date, composed the way Marten splits its async daemon: a lease
 * coordinator (whether this process applies or follows), a generation switch (which generation,
 * blue/green), an apply loop (the subscription and its batches) and a read-your-writes tracker.
 * The runner only wires them and orders the steps that change more than one of them: every
 * change of role or generation runs one after another on `switching`.
 */
export class ProjectionRunner {
  private readonly lease: LeaseCoordinator;
  private readonly generations: GenerationSwitch;
  private readonly loop: ApplyLoop;
  private readonly tracker: CatchUpWaiters;
  private switching: Promise<void> = Promise.resolve();
  private stopped = false;
  private finished = false;

  constructor(
    readonly projection: Projection,
    store: EventStore,
    registry: ReadModelRegistry,
    private readonly logger: Logger,
    /** Where several processes share the read models: the lease that picks the one applying them. */
    lease: Lease | null = null,
    maxBatchSize = 1000,
    /** SQLite: where the app's own projections are applied, beside the event loop (thread-applier.ts). */
    applyThread: ApplyThread | null = null,
    /** The process's one reader of the log (subscriptions/log-feed.ts); the store itself reads for this runner alone. */
    log: Pick<EventStore, 'subscribeToAll'> = store,
  ) {
    const serialize = (work: () => Promise<void>, failure: string) => this.serialize(work, failure);
    const stopped = () => this.stopped;
    const leader = () => this.lease.leader;
    const subject = { field: 'projection', name: projection.name, noun: 'projection', work: 'applying' } as const;
    this.lease = new LeaseCoordinator(lease, subject, logger, {
      serialize,
      stopped,
      promote: () => this.promote(),
      demote: () => this.demote(),
    });
    this.generations = new GenerationSwitch(projection, store, registry, logger, applyThread, {
      serialize,
      stopped,
      leader,
      attach: (generation) => this.attach(generation),
      detach: () => this.detach(),
      moved: () => this.tracker.release(),
    });
    this.tracker = new CatchUpWaiters((target) => this.generations.serving && this.loop.position >= target);
    this.loop = new ApplyLoop(
      projection,
      store,
      registry,
      logger,
      maxBatchSize,
      this.generations,
      this.tracker,
      {
        stopped,
        leader,
        caughtUp: () => this.activateIfCaughtUp(),
      },
      log,
    );
  }

  async start(): Promise<void> {
    await this.lease.start();
    // A follower that starts before its leader created the generation attaches it later (followSwitch).
    if (this.lease.leader) await this.attach(await this.generations.toApply());
    else await this.generations.tryFollow();
    if (this.lease.leader) await this.generations.deleteRetiredFiles();
    this.generations.watchSwitches();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.loop.interrupt();
    this.generations.stopWatching();
    this.lease.stop();
    await this.switching;
    await this.loop.unsubscribe();
    if (this.lease.leader) await this.loop.saveIdleCheckpoint();
    await this.detach();
    await this.lease.release();
    this.finished = true;
  }

  /**
   * The serving (read-only) data source, or null while the first generation of this version is
   * building. A failed runner keeps serving what it last committed while it retries.
   */
  get dataSource(): DataSource | null {
    return this.generations.serving ? this.generations.reader : null;
  }

  status(): RunnerStatus {
    const { name, version } = this.projection;
    const generation = this.generations.generation;
    return {
      name,
      version,
      generation: generation?.generation ?? null,
      state: this.state(generation),
      role: this.lease.role,
      position: this.loop.position,
      error: this.loop.error,
    };
  }

  private state(generation: ReadModelGeneration | null): RunnerStatus['state'] {
    if (this.finished) return 'stopped';
    if (this.loop.failed) return 'failed';
    if (!generation) return 'starting';
    return generation.status === 'active' ? 'serving' : 'building';
  }

  /**
   * Called after each batch is committed and before read-your-writes waiters wake: in-process
   * caches over this read model invalidate here, so a response that waited sees fresh data.
   */
  onApplied(listener: (batch: RecordedEvent[]) => void): () => void {
    return this.loop.onApplied(listener);
  }

  /** Resolves once this read model serves and has applied everything up to `target`. */
  waitFor(target: Position): { promise: Promise<void>; cancel(): void } {
    if (this.generations.serving && this.loop.position >= target)
      return { promise: Promise.resolve(), cancel: () => undefined };
    const wait = this.tracker.wait(target);
    // someone waits for this read model: apply what the log holds now, not after the gathering
    // pause, nor lazily when the events up to the target are none of this read model's
    this.loop.hurry();
    return wait;
  }

  private serialize(work: () => Promise<void>, failure: string): Promise<void> {
    this.switching = this.switching.then(work).catch((error: unknown) => {
      this.logger.error({ err: error, projection: this.projection.name }, failure);
    });
    return this.switching;
  }

  private async attach(generation: ReadModelGeneration): Promise<void> {
    await this.generations.open(generation, this.lease.leader);
    await this.generations.prepareBuild();
    await this.loop.begin();
    // Nothing to catch up on (an empty log): no batch will come to tell us, so look now.
    await this.activateIfCaughtUp();
  }

  private async detach(): Promise<void> {
    await this.loop.halt();
    await this.generations.close();
  }

  /** Took the lease: what a follower opened, it opened to read; open the generation again to apply it. */
  private async promote(): Promise<void> {
    await this.detach();
    await this.attach(await this.generations.toApply());
    await this.generations.deleteRetiredFiles();
  }

  /** Lost the lease: stop applying at once and follow from the checkpoint the last commit stored. */
  private async demote(): Promise<void> {
    await this.loop.unsubscribe();
    // lost with the database (a restart): following starts again once it answers
    if (this.generations.generation) await this.loop.resumeOrRetry();
  }

  /** A building generation this process leads that has reached the head of the log becomes the serving one. */
  private async activateIfCaughtUp(): Promise<void> {
    const generation = this.generations.generation;
    if (!this.lease.leader || this.finished || this.loop.failed || !generation || generation.status === 'active')
      return;
    if (await this.generations.activateIfCaughtUp(this.loop.position)) this.tracker.release();
  }
}
