import { randomBytes } from 'node:crypto';
import { DataSource } from 'typeorm';
import type { EventStore } from '../../../event-store/event-store.port';
import type { Position } from '../../../event-store/position';
import { START } from '../../../event-store/position';
import { catchUp } from '../catch-up';
import type { Projection } from '../../projection';
import type { TableDiff } from '../verify-report';
import { dropGenerationSchema, openPostgresReadModel } from './open-postgres-read-model';

const EXAMPLES = 10;

interface Table {
  table: string;
  keys: string[];
}

const quote = (name: string) => `"${name.replace(/"/g, '""')}"`;

/**
 * verify() on PostgreSQL. A running server keeps applying the live schema meanwhile, so first its
 * tables and checkpoint are copied into a snapshot schema in one REPEATABLE READ transaction (the
 * counterpart of SQLite's VACUUM INTO: one consistent instant, committed where the comparison can
 * read it). The log is replayed into a scratch generation up to that checkpoint, then each table
 * is compared in the database: `EXCEPT ALL` both ways finds the rows that differ, and a join on
 * the primary key tells changed rows from missing and extra ones. Both scratch schemas are dropped
 * at the end.
 */
export async function verifyPostgres(
  projection: Projection,
  store: EventStore,
  url: string,
  liveSchema: string,
): Promise<{ position: Position; tables: TableDiff[] }> {
  const tag = `${process.pid.toString(36)}${randomBytes(3).toString('hex')}`;
  const snapshotSchema = `verify_snapshot_${tag}`;
  const replaySchema = `verify_replay_${tag}`;
  const admin = new DataSource({
    type: 'postgres',
    url,
    poolSize: 1,
    installExtensions: false,
    logging: false,
    applicationName: `parley:verify:${projection.name}`,
  });
  await admin.initialize();
  try {
    const replay = await openPostgresReadModel(projection, url, replaySchema, { create: true, poolSize: 2 });
    let tables: Table[];
    try {
      tables = replay.entityMetadatas
        .filter((m) => m.tableName !== 'projection_checkpoint')
        .map((m) => ({ table: m.tableName, keys: m.primaryColumns.map((c) => c.databaseName) }));
      const position = await snapshot(admin, projection.name, liveSchema, snapshotSchema, tables);
      // an event the handler cannot apply is skipped, as the live runner skipped it (its dead letter says so)
      await catchUp(replay, projection, store, { until: position, onPoison: async () => undefined });
      const diffs: TableDiff[] = [];
      for (const table of tables)
        diffs.push(
          await diffTable(
            admin,
            `${snapshotSchema}.${quote(table.table)}`,
            `${replaySchema}.${quote(table.table)}`,
            table,
          ),
        );
      return { position, tables: diffs };
    } finally {
      await replay.destroy();
    }
  } finally {
    await dropGenerationSchema(admin, replaySchema).catch(() => undefined);
    await dropGenerationSchema(admin, snapshotSchema).catch(() => undefined);
    await admin.destroy();
  }
}

/** Copies the live tables and reads their checkpoint at one instant; the checkpoint. */
async function snapshot(
  admin: DataSource,
  name: string,
  live: string,
  into: string,
  tables: Table[],
): Promise<Position> {
  const runner = admin.createQueryRunner();
  await runner.connect();
  try {
    await runner.query('BEGIN ISOLATION LEVEL REPEATABLE READ');
    try {
      const rows = (await runner.query(`SELECT position FROM ${quote(live)}.projection_checkpoint WHERE name = $1`, [
        name,
      ])) as Array<{ position: Position }>;
      await runner.query(`CREATE SCHEMA ${into}`);
      for (const { table } of tables)
        await runner.query(`CREATE TABLE ${into}.${quote(table)} AS SELECT * FROM ${quote(live)}.${quote(table)}`);
      await runner.query('COMMIT');
      return rows[0]?.position ?? START;
    } catch (error) {
      await runner.query('ROLLBACK').catch(() => undefined);
      throw error;
    }
  } finally {
    await runner.release();
  }
}

async function diffTable(db: DataSource, live: string, replay: string, { table, keys }: Table): Promise<TableDiff> {
  const key = keys.map(quote).join(', ');
  const on = keys.map((k) => `a.${quote(k)} = b.${quote(k)}`).join(' AND ');
  // a: live rows the replay lacks as they are; b: replay rows live lacks. A key in both is a changed row.
  const differing = `WITH a AS (SELECT * FROM ${live} EXCEPT ALL SELECT * FROM ${replay}), b AS (SELECT * FROM ${replay} EXCEPT ALL SELECT * FROM ${live})`;
  const [counts] = (await db.query(
    `${differing} SELECT (SELECT count(*) FROM ${live})::int AS live_rows, (SELECT count(*) FROM ${replay})::int AS replay_rows,
       (SELECT count(*) FROM a)::int AS a, (SELECT count(*) FROM b)::int AS b, (SELECT count(*) FROM a JOIN b ON ${on})::int AS changed`,
  )) as Array<{ live_rows: number; replay_rows: number; a: number; b: number; changed: number }>;
  const diff: TableDiff = {
    table,
    liveRows: counts.live_rows,
    replayRows: counts.replay_rows,
    missing: counts.b - counts.changed,
    extra: counts.a - counts.changed,
    changed: counts.changed,
    examples: [],
  };
  if (counts.a + counts.b === 0) return diff;
  const keyOf = (row: Record<string, unknown>) => keys.map((k) => row[k]);
  const changed = (await db.query(
    `${differing} SELECT row_to_json(a) AS live, row_to_json(b) AS replay FROM a JOIN b ON ${on} ORDER BY ${keys.map((k) => `a.${quote(k)}`).join(', ')} LIMIT ${EXAMPLES}`,
  )) as Array<{ live: Record<string, unknown>; replay: Record<string, unknown> }>;
  for (const row of changed)
    diff.examples.push({ kind: 'changed', key: keyOf(row.live), live: row.live, replay: row.replay });
  const extra = (await db.query(
    `${differing} SELECT row_to_json(a) AS row FROM a WHERE NOT EXISTS (SELECT 1 FROM b WHERE ${on}) ORDER BY ${key} LIMIT ${EXAMPLES}`,
  )) as Array<{ row: Record<string, unknown> }>;
  for (const { row } of extra) diff.examples.push({ kind: 'extra', key: keyOf(row), live: row });
  const missing = (await db.query(
    `${differing} SELECT row_to_json(b) AS row FROM b WHERE NOT EXISTS (SELECT 1 FROM a WHERE ${on}) ORDER BY ${key} LIMIT ${EXAMPLES}`,
  )) as Array<{ row: Record<string, unknown> }>;
  for (const { row } of missing) diff.examples.push({ kind: 'missing', key: keyOf(row), replay: row });
  diff.examples.splice(EXAMPLES);
  return diff;
}
