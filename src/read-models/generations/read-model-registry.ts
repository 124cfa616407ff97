import type { DataSource } from 'typeorm';
import { ReadModelGeneration } from '../../platform/database/platform.entities';
import { SqliteGenerationStorage, type GenerationStorage } from './generation-storage';
import { generationWrites, type GenerationWrites } from './generation-writes';
import { DeadLetterStore } from '../../subscriptions/dead-letters';

/** How long one read of every active generation answers the runners' watches (watchedActive). */
const WATCH_SNAPSHOT_MS = 500;

/**
 * Which file serves each (projection, version). Generation files live under
 * `DATA_DIR/read-models/<name>/v<version>.g<generation>.sqlite`. Switching generations is one
 * transaction on this table, so every process sees either the old file or the new one.
 */
export class ReadModelRegistry {
  private readonly writes: GenerationWrites;
  private watchSnapshot: { at: number; rows: Promise<ReadModelGeneration[]> } | null = null;
  /** Where this registry's generations live (a data dir given here means SQLite files under it). */
  readonly storage: GenerationStorage;
  /** Events the projections set aside (subscriptions/dead-letters.ts), in the same platform database. */
  readonly deadLetters: DeadLetterStore;

  constructor(
    private readonly platform: DataSource,
    storage: GenerationStorage | string,
    deadLetters?: DeadLetterStore,
  ) {
    this.writes = generationWrites(platform);
    this.deadLetters = deadLetters ?? new DeadLetterStore(platform);
    this.storage = typeof storage === 'string' ? new SqliteGenerationStorage(storage) : storage;
  }

  private get repo() {
    return this.platform.getRepository(ReadModelGeneration);
  }

  /** A row as this process uses it: its location resolved by the storage (a file under this data dir). */
  private resolved(row: ReadModelGeneration): ReadModelGeneration;
  private resolved(row: ReadModelGeneration | null): ReadModelGeneration | null;
  private resolved(row: ReadModelGeneration | null): ReadModelGeneration | null {
    return row && Object.assign(new ReadModelGeneration(), row, { file: this.storage.resolve(row.file) });
  }

  async active(name: string, version: number): Promise<ReadModelGeneration | null> {
    return this.resolved(await this.repo.findOne({ where: { name, version, status: 'active' } }));
  }

  /**
   * The active generation, as a runner's once-a-second watch for a switch made elsewhere sees it:
   * one query answers every runner's watch for half a second, where each used to ask on its own (a
   * dozen read models, a dozen queries a second on an idle server). `active` asks afresh.
   */
  async watchedActive(name: string, version: number): Promise<ReadModelGeneration | null> {
    const now = Date.now();
    if (!this.watchSnapshot || now - this.watchSnapshot.at >= WATCH_SNAPSHOT_MS) {
      const rows = this.repo
        .find({ where: { status: 'active' } })
        .then((found) => found.map((row) => this.resolved(row)));
      const snapshot = { at: now, rows };
      this.watchSnapshot = snapshot;
      rows.catch(() => {
        if (this.watchSnapshot === snapshot) this.watchSnapshot = null;
      });
    }
    const rows = await this.watchSnapshot.rows;
    return rows.find((row) => row.name === name && row.version === version) ?? null;
  }

  async building(name: string, version: number): Promise<ReadModelGeneration | null> {
    return this.resolved(
      await this.repo.findOne({ where: { name, version, status: 'building' }, order: { generation: 'DESC' } }),
    );
  }

  async all(): Promise<ReadModelGeneration[]> {
    return (await this.repo.find({ order: { name: 'ASC', version: 'ASC', generation: 'ASC' } })).map((row) =>
      this.resolved(row),
    );
  }

  async create(name: string, version: number, now: string): Promise<ReadModelGeneration> {
    return this.resolved(
      await this.writes.create(name, version, now, (generation) => this.storage.locationOf(name, version, generation)),
    );
  }

  /** Makes `generation` the one that serves; the one it replaces is retired. */
  async activate(name: string, version: number, generation: number, now: string): Promise<void> {
    await this.writes.activate(name, version, generation, now);
    // this process's own switch is seen by the next watch, not half a second later
    this.watchSnapshot = null;
  }

  async retired(name: string): Promise<ReadModelGeneration[]> {
    return (await this.repo.find({ where: { name, status: 'retired' } })).map((row) => this.resolved(row));
  }

  async retire(name: string, version: number, generation: number): Promise<void> {
    await this.repo.update({ name, version, generation }, { status: 'retired' });
    this.watchSnapshot = null;
  }
}
