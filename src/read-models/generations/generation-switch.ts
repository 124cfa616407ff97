import type { Logger } from 'pino';
import type { DataSource } from 'typeorm';
import type { EventStore } from '../../event-store/event-store.port';
import { comparePositions, START, type Position } from '../../event-store/position';
import type { ReadModelGeneration } from '../../platform/database/platform.entities';
import { readCheckpoint } from '../apply/apply-batch';
import { InlineApplier, type BatchApplier } from '../apply/batch-applier';
import { resumeBulkBuild } from './bulk-build';
import type { OpenGeneration } from './generation-storage';
import { GenerationNotBuiltError } from './generation-not-built';
import type { Projection } from '../projection';
import type { ReadModelRegistry } from './read-model-registry';
import type { ApplyThread } from '../apply/thread-applier';

/** What the switch asks of the runner that composes it. */
export interface SwitchSteps {
  serialize(work: () => Promise<void>, failure: string): Promise<void>;
  stopped(): boolean;
  leader(): boolean;
  /** Opens `generation` (open) and applies or follows it from its checkpoint. */
  attach(generation: ReadModelGeneration): Promise<void>;
  /** Stops applying or following, and closes what is open (close). */
  detach(): Promise<void>;
  /** The read model moved without a batch (activated, switched): release the waiters it reached. */
  moved(): void;
}

const WATCH_MS = 1000;

/**
 * Blue/green generations of one read model: which generation this process applies (or follows),
 * its open files or schema, activating a generation built beside the live one once it has caught
 * up, following a switch another process made (the `rebuild` command), and retiring what a switch
 * replaced. Apart from the apply loop, which only ever sees the generation it is handed.
 */
export class GenerationSwitch {
  generation: ReadModelGeneration | null = null;
  /** the serving (read-only) connection of the open generation */
  reader: DataSource | null = null;
  /** where this process applies batches (the leader), null while it only follows */
  applier: BatchApplier | null = null;
  private opened: OpenGeneration | null = null;
  private watch: NodeJS.Timeout | null = null;

  constructor(
    private readonly projection: Projection,
    private readonly store: EventStore,
    private readonly registry: ReadModelRegistry,
    private readonly logger: Logger,
    /** SQLite: where the app's own projections are applied, beside the event loop (thread-applier.ts). */
    private readonly applyThread: ApplyThread | null,
    private readonly steps: SwitchSteps,
  ) {}

  /** The open generation is the active one: reads are answered from it. */
  get serving(): boolean {
    return this.generation?.status === 'active';
  }

  /** Looks for a switch made elsewhere every second from now on. */
  watchSwitches(): void {
    this.watch = setInterval(() => void this.followSwitch(), WATCH_MS);
    this.watch.unref();
  }

  stopWatching(): void {
    if (this.watch) clearInterval(this.watch);
  }

  /**
   * The generation this leader applies: the active one, else the one building, else a new one. A
   * generation whose checkpoint is past the log's head has applied events this log does not hold
   * (an event log restored from an older backup, or read models from another deployment): it
   * would wait for positions that already hold other events, and skip them. It is built again from
   * the log: this process answers READ_MODEL_BUILDING until the new generation has caught up and
   * replaces it, as after a schema change, and a restart meanwhile goes on with that build.
   */
  async toApply(): Promise<ReadModelGeneration> {
    const { name, version } = this.projection;
    const active = await this.registry.active(name, version);
    const building = await this.registry.building(name, version);
    // the checkpoints first: the head only moves on, so a consistent pair never looks ahead
    const checkpoints = await Promise.all(
      [active, building].map((g) => (g ? this.registry.storage.checkpointOf(name, g.file) : START)),
    );
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
      this.logger.error(
        { projection: name, version, generation: building.generation, checkpoint: checkpoints[1], head },
        'a read model being built has applied events past the end of the event log: starting it again from the log',
      );
      await this.registry.retire(name, version, building.generation);
    }
    return this.registry.create(name, version, new Date().toISOString());
  }

  /** A follower attaches the generation its leader applies, once the leader has created it. */
  async tryFollow(): Promise<void> {
    const { name, version } = this.projection;
    const generation = (await this.registry.active(name, version)) ?? (await this.registry.building(name, version));
    if (!generation) return;
    try {
      await this.steps.attach(generation);
    } catch (error) {
      if (!(error instanceof GenerationNotBuiltError)) throw error;
    }
  }

  /** Opens a generation's files (or schema): to apply it where this process leads, else to read it. */
  async open(generation: ReadModelGeneration, leader: boolean): Promise<void> {
    if (
      leader &&
      this.applyThread &&
      this.registry.storage.kind === 'sqlite' &&
      this.applyThread.accepts(this.projection)
    ) {
      // the thread creates a missing file, then this process only reads it
      this.applier = await this.applyThread.open(this.projection, generation.file);
      this.opened = await this.registry.storage.open(this.projection, generation.file, 'follow');
    } else {
      this.opened = await this.registry.storage.open(this.projection, generation.file, leader ? 'apply' : 'follow');
      this.applier = leader ? new InlineApplier(this.opened.writer, this.projection) : null;
      if (leader) await resumeBulkBuild(this.opened.writer);
    }
    this.reader = this.opened.reader;
    this.generation = generation;
  }

  /**
   * A generation this leader builds from the start of the log leaves out what is cheaper built in
   * one pass, and builds it before it serves (bulk-build.ts, activateIfCaughtUp). One that serves,
   * or that was built part of the way in the row-by-row mode, stays in it.
   */
  async prepareBuild(): Promise<void> {
    if (!this.applier || !this.reader || this.generation?.status !== 'building') return;
    if ((await readCheckpoint(this.reader, this.projection.name)) !== START) return;
    await this.applier.beginBulk();
  }

  async close(): Promise<void> {
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

  /** Generations a rebuild replaced while no server ran to delete them on its switch. */
  async deleteRetiredFiles(): Promise<void> {
    for (const old of await this.registry.retired(this.projection.name)) await this.registry.storage.remove(old.file);
  }

  /** A building generation that has reached the head of the log becomes the serving one; true if it did. */
  async activateIfCaughtUp(position: Position): Promise<boolean> {
    if (!this.generation) return false;
    if (position < (await this.store.headPosition())) return false;
    // A rebuild elsewhere may have activated a newer generation meanwhile: follow it instead.
    const active = await this.registry.active(this.projection.name, this.projection.version);
    if (active && active.generation > this.generation.generation) return false;
    // what a build from the start left out, built before anyone reads it; the log may have moved
    // on meanwhile: the next batch activates it then
    if (this.applier && (await this.applier.endBulk()) && position < (await this.store.headPosition())) return false;
    await this.registry.activate(
      this.projection.name,
      this.projection.version,
      this.generation.generation,
      new Date().toISOString(),
    );
    await this.registry.deadLetters.resolveSuperseded(this.projection.name, this.generation.generation);
    this.generation = { ...this.generation, status: 'active' };
    this.logger.info(
      { projection: this.projection.name, generation: this.generation.generation },
      'read model built and serving',
    );
    return true;
  }

  /**
   * Another process activated a newer generation (rebuild): serve from it. A follower also learns
   * here that the generation it follows was created, or became active.
   */
  private followSwitch(): Promise<void> {
    return this.steps.serialize(async () => {
      if (this.steps.stopped()) return;
      if (!this.generation || !this.opened) {
        if (!this.steps.leader()) await this.tryFollow();
        return;
      }
      const active = await this.registry.watchedActive(this.projection.name, this.projection.version);
      if (!active) return;
      if (active.generation === this.generation.generation) {
        if (this.generation.status !== 'active') {
          this.generation = { ...this.generation, status: 'active' };
          this.steps.moved();
        }
        return;
      }
      if (active.generation < this.generation.generation) return;
      const old = this.generation;
      await this.steps.detach();
      // the leader retires and deletes what it replaced; a follower only lets go of it
      if (this.steps.leader() && old.status === 'building')
        await this.registry.retire(old.name, old.version, old.generation);
      await this.steps.attach(active);
      if (this.steps.leader()) await this.registry.storage.remove(old.file);
      this.logger.info(
        { projection: this.projection.name, generation: active.generation },
        'switched to a rebuilt generation',
      );
      this.steps.moved();
    }, 'could not follow a generation switch');
  }
}
