import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { ProjectionCheckpoint } from '../../apply/checkpoint.entity';
import { GenerationNotBuiltError } from '../generation-not-built';
import type { Projection } from '../../projection';

const SCHEMA = /^[a-z_][a-z0-9_]{0,62}$/;

/** The PostgreSQL schema of one generation: `rm_<name>_v<version>_g<generation>`. */
export function generationSchema(name: string, version: number, generation: number): string {
  const schema = `rm_${name.replace(/-/g, '_')}_v${version}_g${generation}`;
  if (!SCHEMA.test(schema))
    throw new Error(`read model ${name} v${version} g${generation} makes no schema name (${schema})`);
  return schema;
}

/**
 * One generation of a read model on PostgreSQL: a schema of its own, the counterpart of a
 * generation file. `create`: a missing schema is made, its tables from the entities (a generation
 * is never altered in place: a new schema version builds a new generation) and the projection's
 * PostgreSQL setup after them, all in a draft schema renamed into place at the end, so a schema
 * that exists is complete. Without `create` (a follower), a missing schema is
 * GenerationNotBuiltError. Connections search that schema first, so the same unqualified SQL reads
 * either backend. One pool serves writes and reads: PostgreSQL readers never see a batch before
 * it commits.
 */
export async function openPostgresReadModel(
  projection: Projection,
  url: string,
  schema: string,
  options: { create?: boolean; poolSize?: number } = {},
): Promise<DataSource> {
  if (!SCHEMA.test(schema)) throw new Error(`not a plain schema name: ${schema}`);
  if (!(await schemaExists(url, schema))) {
    if (options.create === false)
      throw new GenerationNotBuiltError(`the ${projection.name} generation ${schema} is not built yet`);
    await createGenerationSchema(projection, url, schema);
  }
  const source = dataSource(projection, url, schema, options.poolSize ?? 5);
  await source.initialize();
  return source;
}

function dataSource(projection: Projection, url: string, schema: string, poolSize: number): DataSource {
  return new DataSource({
    type: 'postgres',
    url,
    schema,
    entities: [...projection.entities, ProjectionCheckpoint],
    synchronize: false,
    logging: false,
    applicationName: `parley:${projection.name}`,
    poolSize,
    installExtensions: false,
    extra: { options: `-c search_path=${schema}` },
  });
}

async function schemaExists(url: string, schema: string): Promise<boolean> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query(
      'SELECT EXISTS (SELECT 1 FROM information_schema.schemata WHERE schema_name = $1) AS present',
      [schema],
    );
    return (rows[0] as { present: boolean }).present;
  } finally {
    await client.end();
  }
}

async function createGenerationSchema(projection: Projection, url: string, schema: string): Promise<void> {
  const draft = `${schema.slice(0, 40)}_draft_${process.pid}_${Date.now() % 1e8}`;
  const source = dataSource(projection, url, draft, 1);
  await source.initialize();
  try {
    await source.query(`CREATE SCHEMA ${draft}`);
    await source.synchronize();
    for (const sql of projection.postgresSetup ?? []) await source.query(sql);
    try {
      await source.query(`ALTER SCHEMA ${draft} RENAME TO ${schema}`);
    } catch (error) {
      // another process created it meanwhile (42P06: duplicate schema): theirs is as good
      if ((error as { driverError?: { code?: string } }).driverError?.code !== '42P06') throw error;
    }
  } finally {
    await source.query(`DROP SCHEMA IF EXISTS ${draft} CASCADE`).catch(() => undefined);
    await source.destroy();
  }
}

/** Drops a retired generation's schema and everything in it. */
export async function dropGenerationSchema(source: DataSource, schema: string): Promise<void> {
  if (!SCHEMA.test(schema)) throw new Error(`not a plain schema name: ${schema}`);
  await source.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
}
