import path from 'node:path';
import type { DataSource } from 'typeorm';
import { ReadModelGeneration } from '../platform/database/platform.entities';
import { syncTransaction } from '../platform/database/raw-connection';

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
    return syncTransaction(this.platform, (db) => {
      const { g } = db.prepare('SELECT max(generation) AS g FROM read_model_generation WHERE name = ?').get(name) as { g: number | null };
      const generation = (g ?? 0) + 1;
      const file = path.join(this.dataDir, 'read-models', name, `v${version}.g${generation}.sqlite`);
      db.prepare(
        "INSERT INTO read_model_generation (name, version, generation, status, file, created_at) VALUES (?, ?, ?, 'building', ?, ?)",
      ).run(name, version, generation, file, now);
      return Object.assign(new ReadModelGeneration(), { name, version, generation, status: 'building' as const, file, createdAt: now, activatedAt: null });
    });
  }

  /** Makes `generation` the one that serves; the one it replaces is retired. */
  async activate(name: string, version: number, generation: number, now: string): Promise<void> {
    syncTransaction(this.platform, (db) => {
      db.prepare("UPDATE read_model_generation SET status = 'retired' WHERE name = ? AND version = ? AND status = 'active'").run(name, version);
      db.prepare("UPDATE read_model_generation SET status = 'active', activated_at = ? WHERE name = ? AND version = ? AND generation = ?").run(now, name, version, generation);
    });
  }

  retired(name: string): Promise<ReadModelGeneration[]> {
    return this.repo.find({ where: { name, status: 'retired' } });
  }

  async retire(name: string, version: number, generation: number): Promise<void> {
    await this.repo.update({ name, version, generation }, { status: 'retired' });
  }
}
