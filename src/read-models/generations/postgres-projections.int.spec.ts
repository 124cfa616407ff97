import type { EventStore } from '../../event-store/event-store.port';
import { openSealedSqliteLog } from '../../cli/open-sealed-store';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { DataSource } from 'typeorm';
import { ALL_PROJECTIONS } from '../../../projections';
import { readCheckpoint } from '../apply/apply-batch';
import { catchUp } from './catch-up';
import { openReadModel } from './open-read-model';
import { dropGenerationSchema, generationSchema, openPostgresReadModel } from './postgres/open-postgres-read-model';
import { seed } from '../../cli/seed/seed';
import {
  postgresBinariesOrSkip,
  startPostgresServer,
  type PostgresServer,
} from '../../../test/support/postgres-server';

const binaries = postgresBinariesOrSkip(
  'projections applied on PostgreSQL (src/read-models/generations/postgres-projections.int.spec.ts)',
);
const maybe = binaries ? describe : describe.skip;

/** A row as both databases can be compared: booleans as booleans, numbers as numbers, keys sorted. */
function normalise(row: Record<string, unknown>, booleans: Set<string>, numbers: Set<string>): string {
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(row).sort()) {
    const value = row[key];
    if (value === null || value === undefined) out[key] = null;
    else if (booleans.has(key)) out[key] = value === true || value === 1;
    else if (numbers.has(key)) out[key] = Number(value);
    else out[key] = value;
  }
  return JSON.stringify(out);
}

async function tableRows(
  source: DataSource,
  table: string,
  keys: string[],
  booleans: Set<string>,
  numbers: Set<string>,
): Promise<string[]> {
  const rows = (await source.query(`SELECT * FROM ${table} ORDER BY ${keys.map((k) => `"${k}"`).join(', ')}`)) as Array<
    Record<string, unknown>
  >;
  return rows.map((row) => normalise(row, booleans, numbers));
}

/**
 * The same projection code, the same events, both databases: every read model built on
 * PostgreSQL (PgRows, a schema per generation) holds exactly the rows the SQLite build holds.
 * The log is the seed's (accounts, keys, agents with branches and merges, conversations with
 * turns, handoffs and metrics), applied in small batches so batch-spanning folds are exercised.
 */
maybe('projections on PostgreSQL', () => {
  let server: PostgresServer;
  let dir: string;
  let store: EventStore;

  beforeAll(async () => {
    server = await startPostgresServer(binaries);
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-pg-projections-'));
    // only its event log is used: the seeding app's read models stay in SQLite files whatever the run's READ_MODEL_DB
    await seed({
      dataDir: dir,
      conversations: 120,
      agents: 2,
      days: 30,
      seed: 7,
      concurrency: 8,
      log: () => undefined,
      env: { READ_MODEL_DB: 'sqlite' },
    });
    store = await openSealedSqliteLog(dir);
  }, 240_000);

  afterAll(async () => {
    await store?.close();
    await server?.stop();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  it.each(ALL_PROJECTIONS.map((p) => [p.name, p] as const))(
    '%s holds the same rows on both',
    async (_name, projection) => {
      const sqlite = await openReadModel(projection, path.join(dir, `check-${projection.name}.sqlite`));
      const schema = generationSchema(projection.name, projection.version, 1);
      const pg = await openPostgresReadModel(projection, server.url, schema);
      try {
        const a = await catchUp(sqlite, projection, store, { batchSize: 37 });
        const b = await catchUp(pg, projection, store, { batchSize: 37 });
        expect(b).toEqual(a);
        expect(await readCheckpoint(pg, projection.name)).toBe(await readCheckpoint(sqlite, projection.name));
        for (const metadata of sqlite.entityMetadatas.filter((m) => m.tableName !== 'projection_checkpoint')) {
          const keys = metadata.primaryColumns.map((c) => c.databaseName);
          const booleans = new Set(metadata.columns.filter((c) => c.type === 'boolean').map((c) => c.databaseName));
          const numbers = new Set(
            metadata.columns
              .filter((c) => ['bigint', 'double precision', 'integer'].includes(String(c.type)))
              .map((c) => c.databaseName),
          );
          const left = await tableRows(sqlite, metadata.tableName, keys, booleans, numbers);
          const right = await tableRows(pg, metadata.tableName, keys, booleans, numbers);
          expect({ table: metadata.tableName, rows: right }).toEqual({ table: metadata.tableName, rows: left });
        }
        // a second catch-up finds nothing to do on either: the checkpoint moved with the rows
        expect((await catchUp(pg, projection, store)).events).toBe(0);
      } finally {
        await sqlite.destroy();
        await dropGenerationSchema(pg, schema);
        await pg.destroy();
      }
    },
    180_000,
  );

  it('a reopened schema keeps its rows and checkpoint, and is not created again', async () => {
    const projection = ALL_PROJECTIONS.find((p) => p.name === 'accounts')!;
    const schema = generationSchema(projection.name, projection.version, 2);
    const first = await openPostgresReadModel(projection, server.url, schema);
    await catchUp(first, projection, store);
    const position = await readCheckpoint(first, projection.name);
    await first.destroy();
    const again = await openPostgresReadModel(projection, server.url, schema);
    try {
      expect(await readCheckpoint(again, projection.name)).toBe(position);
      const [{ n }] = (await again.query('SELECT count(*)::int AS n FROM account')) as Array<{ n: number }>;
      expect(n).toBeGreaterThan(0);
    } finally {
      await dropGenerationSchema(again, schema);
      await again.destroy();
    }
  }, 180_000);
});
