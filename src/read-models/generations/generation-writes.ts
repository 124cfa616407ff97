import type { DataSource } from 'typeorm';
import { forDialect } from '../../platform/database/dialect';
import { pgTransaction } from '../../platform/database/pg-queries';
import { ReadModelGeneration } from '../../platform/database/platform.entities';
import { syncTransaction } from '../../platform/database/raw-connection';

/** The registry's writes that must be atomic: numbering a new generation, and switching the active one. */
export interface GenerationWrites {
  /** A `building` generation numbered after every earlier one of `name`; `fileFor` says where it lives. */
  create(
    name: string,
    version: number,
    now: string,
    fileFor: (generation: number) => string,
  ): Promise<ReadModelGeneration>;
  /** `generation` serves from now on; the active one it replaces is retired. */
  activate(name: string, version: number, generation: number, now: string): Promise<void>;
}

const building = (name: string, version: number, generation: number, file: string, now: string) =>
  Object.assign(new ReadModelGeneration(), {
    name,
    version,
    generation,
    status: 'building' as const,
    file,
    createdAt: now,
    activatedAt: null,
  });

class SqliteGenerationWrites implements GenerationWrites {
  constructor(private readonly platform: DataSource) {}

  async create(
    name: string,
    version: number,
    now: string,
    fileFor: (generation: number) => string,
  ): Promise<ReadModelGeneration> {
    return syncTransaction(this.platform, (db) => {
      const { g } = db.prepare('SELECT max(generation) AS g FROM read_model_generation WHERE name = ?').get(name) as {
        g: number | null;
      };
      const generation = (g ?? 0) + 1;
      const file = fileFor(generation);
      db.prepare(
        "INSERT INTO read_model_generation (name, version, generation, status, file, created_at) VALUES (?, ?, ?, 'building', ?, ?)",
      ).run(name, version, generation, file, now);
      return building(name, version, generation, file, now);
    });
  }

  async activate(name: string, version: number, generation: number, now: string): Promise<void> {
    syncTransaction(this.platform, (db) => {
      db.prepare(
        "UPDATE read_model_generation SET status = 'retired' WHERE name = ? AND version = ? AND status = 'active'",
      ).run(name, version);
      db.prepare(
        "UPDATE read_model_generation SET status = 'active', activated_at = ? WHERE name = ? AND version = ? AND generation = ?",
      ).run(now, name, version, generation);
    });
  }
}

/**
 * Both writes first take the table's SHARE ROW EXCLUSIVE lock, which only writers of this table
 * wait for (reads go on). Under READ COMMITTED alone, two processes could number the same
 * generation, or two activations of one version could each miss the row the other just activated
 * and leave two active. Both writes are rare (a deploy, a rebuild): serializing them costs nothing.
 */
class PostgresGenerationWrites implements GenerationWrites {
  constructor(private readonly platform: DataSource) {}

  async create(
    name: string,
    version: number,
    now: string,
    fileFor: (generation: number) => string,
  ): Promise<ReadModelGeneration> {
    return pgTransaction(this.platform, async (q) => {
      await q.affected('LOCK TABLE read_model_generation IN SHARE ROW EXCLUSIVE MODE');
      const [{ g }] = await q.rows<{ g: number | null }>(
        'SELECT max(generation) AS g FROM read_model_generation WHERE name = $1',
        [name],
      );
      const generation = (g ?? 0) + 1;
      const file = fileFor(generation);
      await q.affected(
        "INSERT INTO read_model_generation (name, version, generation, status, file, created_at) VALUES ($1, $2, $3, 'building', $4, $5)",
        [name, version, generation, file, now],
      );
      return building(name, version, generation, file, now);
    });
  }

  async activate(name: string, version: number, generation: number, now: string): Promise<void> {
    await pgTransaction(this.platform, async (q) => {
      await q.affected('LOCK TABLE read_model_generation IN SHARE ROW EXCLUSIVE MODE');
      await q.affected(
        "UPDATE read_model_generation SET status = 'retired' WHERE name = $1 AND version = $2 AND status = 'active'",
        [name, version],
      );
      await q.affected(
        "UPDATE read_model_generation SET status = 'active', activated_at = $1 WHERE name = $2 AND version = $3 AND generation = $4",
        [now, name, version, generation],
      );
    });
  }
}

export const generationWrites = (platform: DataSource): GenerationWrites =>
  forDialect<GenerationWrites>(platform, {
    sqlite: (s) => new SqliteGenerationWrites(s),
    postgres: (s) => new PostgresGenerationWrites(s),
  });
