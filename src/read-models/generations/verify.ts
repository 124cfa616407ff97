import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import type { EventStore } from '../../event-store/event-store.port';
import { readCheckpoint } from '../apply/apply-batch';
import { catchUp } from './catch-up';
import { openReadModel } from './open-read-model';
import { PostgresGenerationStorage } from './generation-storage';
import { verifyPostgres } from './postgres/verify-postgres';
import type { Projection } from '../projection';
import type { ReadModelRegistry } from './read-model-registry';
import type { TableDiff, VerifyReport } from './verify-report';

export type { VerifyReport } from './verify-report';

const EXAMPLES = 10;

/**
 * Proves a read model equals a fresh replay of the log, on the database its generations live in
 * (verifyPostgres for PostgreSQL schemas, below for SQLite files).
 */
export async function verify(
  projection: Projection,
  store: EventStore,
  registry: ReadModelRegistry,
): Promise<VerifyReport> {
  const active = await registry.active(projection.name, projection.version);
  if (!active) throw new Error(`${projection.name} v${projection.version} has no active generation to verify`);
  const storage = registry.storage;
  const { position, tables } =
    storage instanceof PostgresGenerationStorage
      ? await verifyPostgres(projection, store, storage.url, storage.schemaOf(active.file))
      : await verifySqlite(projection, store, active.file);
  const differences = tables.reduce((n, d) => n + d.missing + d.extra + d.changed, 0);
  return { name: projection.name, generation: active.generation, position, tables, differences };
}

/**
 * The live file is snapshotted (VACUUM INTO, one read transaction) so a running server can keep
 * writing; the replay stops exactly at the snapshot's checkpoint; then every table is compared
 * row by row in primary-key order.
 */
async function verifySqlite(
  projection: Projection,
  store: EventStore,
  liveFile: string,
): Promise<{ position: string; tables: TableDiff[] }> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `parley-verify-${projection.name}-`));
  const snapshotFile = path.join(dir, 'live.sqlite');
  try {
    const live = new Database(liveFile, { readonly: true, fileMustExist: true });
    live.prepare('VACUUM INTO ?').run(snapshotFile);
    live.close();

    const snapshot = await openReadModel(projection, snapshotFile);
    const position = await readCheckpoint(snapshot, projection.name);
    const tables = snapshot.entityMetadatas
      .filter((m) => m.tableName !== 'projection_checkpoint')
      .map((m) => ({ table: m.tableName, keys: m.primaryColumns.map((c) => c.databaseName) }));
    await snapshot.destroy();

    const replay = await openReadModel(projection, path.join(dir, 'replay.sqlite'));
    // an event the handler cannot apply is skipped, as the live runner skipped it (its dead letter says so)
    await catchUp(replay, projection, store, { until: position, onPoison: async () => undefined });
    await replay.destroy();

    return {
      position,
      tables: tables.map(({ table, keys }) => diffTable(snapshotFile, path.join(dir, 'replay.sqlite'), table, keys)),
    };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** Merge-join of two tables ordered by primary key: memory stays flat however big they are. */
function diffTable(liveFile: string, replayFile: string, table: string, keys: string[]): TableDiff {
  const live = new Database(liveFile, { readonly: true });
  const replay = new Database(replayFile, { readonly: true });
  const order = keys.map((k) => `"${k}"`).join(', ');
  const sql = `SELECT * FROM "${table}" ORDER BY ${order}`;
  const diff: TableDiff = { table, liveRows: 0, replayRows: 0, missing: 0, extra: 0, changed: 0, examples: [] };
  const note = (example: TableDiff['examples'][number]) => {
    if (diff.examples.length < EXAMPLES) diff.examples.push(example);
  };
  try {
    const a = live.prepare(sql).iterate() as IterableIterator<Record<string, unknown>>;
    const b = replay.prepare(sql).iterate() as IterableIterator<Record<string, unknown>>;
    let x = a.next();
    let y = b.next();
    while (!x.done || !y.done) {
      const cmp = x.done
        ? 1
        : y.done
          ? -1
          : compareKeys(
              keys.map((k) => x.value[k]),
              keys.map((k) => y.value[k]),
            );
      if (cmp < 0) {
        diff.liveRows++;
        diff.extra++;
        note({ kind: 'extra', key: keys.map((k) => x.value[k]), live: x.value });
        x = a.next();
      } else if (cmp > 0) {
        diff.replayRows++;
        diff.missing++;
        note({ kind: 'missing', key: keys.map((k) => y.value[k]), replay: y.value });
        y = b.next();
      } else {
        diff.liveRows++;
        diff.replayRows++;
        if (JSON.stringify(x.value) !== JSON.stringify(y.value)) {
          diff.changed++;
          note({ kind: 'changed', key: keys.map((k) => x.value[k]), live: x.value, replay: y.value });
        }
        x = a.next();
        y = b.next();
      }
    }
  } finally {
    live.close();
    replay.close();
  }
  return diff;
}

/** SQLite's ORDER BY order for the values a key holds: NULL < numbers < text < blobs. */
function compareKeys(a: unknown[], b: unknown[]): number {
  for (let i = 0; i < a.length; i++) {
    const c = compareValue(a[i], b[i]);
    if (c !== 0) return c;
  }
  return 0;
}

function rank(v: unknown): number {
  if (v === null || v === undefined) return 0;
  if (typeof v === 'number' || typeof v === 'bigint') return 1;
  if (typeof v === 'string') return 2;
  return 3;
}

function compareValue(a: unknown, b: unknown): number {
  const ra = rank(a);
  const rb = rank(b);
  if (ra !== rb) return ra - rb;
  if (ra === 1) return Number(a) - Number(b);
  if (ra === 2) return Buffer.compare(Buffer.from(a as string), Buffer.from(b as string));
  if (ra === 3) return Buffer.compare(a as Buffer, b as Buffer);
  return 0;
}
