import path from 'node:path';
import type { DataSource } from 'typeorm';
import { ReadModelGeneration } from '../platform/database/platform.entities';

/**
 * Which file serves each (projection, version). Generation files live under
 * `DATA_DIR/read-models/<name>/v<version>.g<generation>.sqlite`. Switching generations is one
 * transaction on this table, so every process sees either the old file or the new one.
 */
export class ReadModelRegistry {
  constructor(
    private readonly platform: DataSource,
    private readonly dataDir: string,
  ) {}

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
    return this.platform.transaction(async (em) => {
      const rows: Array<{ g: number | null }> = await em.query(
        'SELECT max(generation) AS g FROM read_model_generation WHERE name = ?',
        [name],
      );
      const generation = (rows[0]?.g ?? 0) + 1;
      const file = path.join(this.dataDir, 'read-models', name, `v${version}.g${generation}.sqlite`);
      const row = em.create(ReadModelGeneration, { name, version, generation, status: 'building', file, createdAt: now, activatedAt: null });
      return em.save(row);
    });
  }

  /** Makes `generation` the one that serves; the one it replaces is retired. */
  async activate(name: string, version: number, generation: number, now: string): Promise<void> {
    await this.platform.transaction(async (em) => {
      await em.update(ReadModelGeneration, { name, version, status: 'active' }, { status: 'retired' });
      await em.update(ReadModelGeneration, { name, version, generation }, { status: 'active', activatedAt: now });
    });
  }

  async retire(name: string, version: number, generation: number): Promise<void> {
    await this.repo.update({ name, version, generation }, { status: 'retired' });
  }
}
