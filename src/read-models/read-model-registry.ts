import type { DataSource } from 'typeorm';
import { ReadModelGeneration } from '../platform/database/platform.entities';
import { SqliteGenerationStorage, type GenerationStorage } from './generation-storage';
import { generationWrites, type GenerationWrites } from './generation-writes';

/**
 * Which file serves each (projection, version). Generation files live under
 * `DATA_DIR/read-models/<name>/v<version>.g<generation>.sqlite`. Switching generations is one
 * transaction on this table, so every process sees either the old file or the new one.
 */
export class ReadModelRegistry {
  private readonly writes: GenerationWrites;
  /** Where this registry's generations live (a data dir given here means SQLite files under it). */
  readonly storage: GenerationStorage;

  constructor(
    private readonly platform: DataSource,
    storage: GenerationStorage | string,
  ) {
    this.writes = generationWrites(platform);
    this.storage = typeof storage === 'string' ? new SqliteGenerationStorage(storage) : storage;
  }

  private get repo() {
    return this.platform.getRepository(ReadModelGeneration);
  }

  active(name: string, version: number): Promise<ReadModelGeneration | null> {
    return this.repo.findOne({ where: { name, version, status: 'active' } });
  }

  building(name: string, version: number): Promise<ReadModelGeneration | null> {
    return this.repo.findOne({ where: { name, version, status: 'building' }, order: { generation: 'DESC' } });
  }

  all(): Promise<ReadModelGeneration[]> {
    return this.repo.find({ order: { name: 'ASC', version: 'ASC', generation: 'ASC' } });
  }

  async create(name: string, version: number, now: string): Promise<ReadModelGeneration> {
    return this.writes.create(name, version, now, (generation) => this.storage.locationOf(name, version, generation));
  }

  /** Makes `generation` the one that serves; the one it replaces is retired. */
  async activate(name: string, version: number, generation: number, now: string): Promise<void> {
    await this.writes.activate(name, version, generation, now);
  }

  retired(name: string): Promise<ReadModelGeneration[]> {
    return this.repo.find({ where: { name, status: 'retired' } });
  }

  async retire(name: string, version: number, generation: number): Promise<void> {
    await this.repo.update({ name, version, generation }, { status: 'retired' });
  }
}
