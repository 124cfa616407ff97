import type { MigrationInterface } from 'typeorm';

/**
 * A set of tables in the platform database: the entities that map them and the migrations that
 * create them, in each dialect. The platform brings its own; a context that keeps rows there
 * (alert evaluations, the webhook outbox) declares its set beside its code, and the composition
 * root (src/app.database.ts) lists them all, so the platform never imports a context.
 */
export interface PlatformTables {
  // TypeORM's own type for entity classes
  // eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
  entities: Function[];
  sqliteMigrations: (new () => MigrationInterface)[];
  postgresMigrations: (new () => MigrationInterface)[];
}
