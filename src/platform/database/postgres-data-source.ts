import { DataSource, type DataSourceOptions, type MigrationInterface } from 'typeorm';

export interface PostgresDataSourceOptions {
  url: string;
  entities: NonNullable<DataSourceOptions['entities']>;
  migrations: Array<new () => MigrationInterface>;
  /** connections in this process's pool */
  poolSize?: number;
}

/** Any constant shared by every process migrating the same database (pg_advisory_lock takes a bigint). */
const MIGRATION_LOCK = 7_260_423_115_001;

/**
 * A TypeORM data source on PostgreSQL through `pg`, its schema brought up to date by migrations,
 * never synchronize. TypeORM itself takes no lock while it migrates, and the processes of a scaled
 * set start together: each waits for a session advisory lock first, so one migrates an empty
 * database and the others find the work done.
 */
export async function openPostgresDataSource(options: PostgresDataSourceOptions): Promise<DataSource> {
  const source = new DataSource({
    type: 'postgres',
    url: options.url,
    entities: options.entities,
    migrations: options.migrations,
    migrationsRun: false,
    synchronize: false,
    logging: false,
    applicationName: 'parley',
    poolSize: options.poolSize ?? 10,
    connectTimeoutMS: 10_000,
    // the platform tables need no extension (no uuid or hstore columns): never ask for CREATE EXTENSION
    installExtensions: false,
  });
  await source.initialize();
  try {
    const lock = source.createQueryRunner();
    try {
      await lock.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK]);
      // all in one transaction: PostgreSQL's DDL is transactional, so a failed migration leaves nothing half done
      await source.runMigrations({ transaction: 'all' });
    } finally {
      await lock.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK]).catch(() => undefined);
      await lock.release();
    }
  } catch (error) {
    await source.destroy();
    throw error;
  }
  return source;
}
