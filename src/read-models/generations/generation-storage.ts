import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { DataSource } from 'typeorm';
import { openReadModel, openReadModelReader } from './open-read-model';
import { GenerationNotBuiltError } from './generation-not-built';
import { dropGenerationSchema, generationSchema, openPostgresReadModel } from './postgres/open-postgres-read-model';
import type { Projection } from '../projection';
import { START, type Position } from '../../event-store/position';

export interface OpenGeneration {
  /** where batches are applied */
  writer: DataSource;
  /** what queries read: only committed batches */
  reader: DataSource;
  close(): Promise<void>;
}

/**
 * Where read-model generations live, and how they are opened and dropped. The registry records a
 * generation's location (its `file` column): a file path on SQLite, `postgres:<schema>` on
 * PostgreSQL. Runners, rebuild and status go through this, never to a file or a schema directly.
 */
export interface GenerationStorage {
  readonly kind: 'sqlite' | 'postgres';
  /** What the registry stores for a new generation. */
  locationOf(name: string, version: number, generation: number): string;
  /** What this process opens for a stored location (the registry hands out resolved rows). */
  resolve(location: string): string;
  /**
   * `apply`: the process that applies the projection; creates the generation when missing.
   * `follow`: a process that only serves it; GenerationNotBuiltError until its applier created it.
   */
  open(projection: Projection, location: string, mode?: 'apply' | 'follow'): Promise<OpenGeneration>;
  /** Deletes a retired generation; nothing when it is already gone. */
  remove(location: string): Promise<void>;
  /** The checkpoint a generation holds (START if it has none, or is gone), of any version, without keeping it open. */
  checkpointOf(name: string, location: string): Promise<Position>;
}

const GENERATIONS_DIR = 'read-models';

/**
 * One file per generation under `DATA_DIR/read-models/<name>/`; a separate read-only connection
 * reads it. The registry holds the file's absolute path as it was written (what every version of
 * the server reads, so a rollback still finds its files), and this process opens the file at the
 * same place under its own data dir: a data dir that is moved, restored from a backup or copied
 * opens its own files, never the ones it was copied from.
 */
export class SqliteGenerationStorage implements GenerationStorage {
  readonly kind = 'sqlite' as const;

  constructor(private readonly dataDir: string) {}

  locationOf(name: string, version: number, generation: number): string {
    return path.join(path.resolve(this.dataDir), GENERATIONS_DIR, name, `v${version}.g${generation}.sqlite`);
  }

  /** The file at the location's place under this data dir: its `read-models/...` part. */
  resolve(location: string): string {
    const parts = location.split(path.sep);
    const at = parts.lastIndexOf(GENERATIONS_DIR);
    return at < 0 ? path.resolve(this.dataDir, location) : path.join(path.resolve(this.dataDir), ...parts.slice(at));
  }

  async open(projection: Projection, location: string, mode: 'apply' | 'follow' = 'apply'): Promise<OpenGeneration> {
    if (mode === 'follow') {
      if (!fs.existsSync(location))
        throw new GenerationNotBuiltError(`the ${projection.name} generation ${location} is not built yet`);
      const reader = await openReadModelReader(projection, location);
      return { writer: reader, reader, close: () => closeAll(reader) };
    }
    const writer = await openReadModel(projection, location);
    const reader = await openReadModelReader(projection, location);
    return { writer, reader, close: () => closeAll(reader, writer) };
  }

  async remove(location: string): Promise<void> {
    for (const suffix of ['', '-wal', '-shm']) fs.rmSync(location + suffix, { force: true });
  }

  async checkpointOf(name: string, location: string): Promise<Position> {
    if (!fs.existsSync(location)) return START;
    const db = new Database(location, { readonly: true });
    try {
      const row = db.prepare('SELECT position FROM projection_checkpoint WHERE name = ?').get(name) as
        { position: Position } | undefined;
      return row?.position ?? START;
    } catch {
      return START;
    } finally {
      db.close();
    }
  }
}

const PREFIX = 'postgres:';

/**
 * One schema per generation in the read-model database. One pool writes and reads: PostgreSQL
 * never shows a batch to another connection before it commits, so no second pool is needed.
 */
export class PostgresGenerationStorage implements GenerationStorage {
  readonly kind = 'postgres' as const;

  constructor(readonly url: string) {}

  locationOf(name: string, version: number, generation: number): string {
    return `${PREFIX}${generationSchema(name, version, generation)}`;
  }

  /** A schema of the read-model database: the same for every process. */
  resolve(location: string): string {
    return location;
  }

  /** The schema a location names. */
  schemaOf(location: string): string {
    return schemaOf(location);
  }

  async open(projection: Projection, location: string, mode: 'apply' | 'follow' = 'apply'): Promise<OpenGeneration> {
    const source = await openPostgresReadModel(projection, this.url, schemaOf(location), { create: mode === 'apply' });
    return { writer: source, reader: source, close: () => closeAll(source) };
  }

  /** A one-connection source outside any generation, for the rare statements about schemas. */
  private async admin(): Promise<DataSource> {
    const source = new DataSource({
      type: 'postgres',
      url: this.url,
      poolSize: 1,
      installExtensions: false,
      logging: false,
    });
    await source.initialize();
    return source;
  }

  async remove(location: string): Promise<void> {
    const source = await this.admin();
    try {
      await dropGenerationSchema(source, schemaOf(location));
    } finally {
      await source.destroy();
    }
  }

  async checkpointOf(name: string, location: string): Promise<Position> {
    const source = await this.admin();
    try {
      const schema = schemaOf(location);
      const [{ present }] = (await source.query(
        `SELECT EXISTS (SELECT 1 FROM information_schema.tables WHERE table_schema = $1 AND table_name = 'projection_checkpoint') AS present`,
        [schema],
      )) as Array<{ present: boolean }>;
      if (!present) return START;
      const rows = (await source.query(`SELECT position FROM ${schema}.projection_checkpoint WHERE name = $1`, [
        name,
      ])) as Array<{ position: Position }>;
      return rows[0]?.position ?? START;
    } finally {
      await source.destroy();
    }
  }
}

function schemaOf(location: string): string {
  if (!location.startsWith(PREFIX))
    throw new Error(`not a PostgreSQL generation: ${location} (READ_MODEL_DB changed under an existing registry?)`);
  return location.slice(PREFIX.length);
}

async function closeAll(...sources: DataSource[]): Promise<void> {
  for (const source of new Set(sources)) if (source.isInitialized) await source.destroy();
}

/** The storage READ_MODEL_DB names. */
export function generationStorage(config: {
  readModelDb: 'sqlite' | 'postgres';
  databaseUrl: string | null;
  dataDir: string;
}): GenerationStorage {
  if (config.readModelDb === 'postgres') return new PostgresGenerationStorage(config.databaseUrl!);
  return new SqliteGenerationStorage(config.dataDir);
}
