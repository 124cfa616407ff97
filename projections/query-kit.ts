/**
 * A read model's row as its queries return it: the entity's fields without the entity class, so a
 * context depends on the shape it reads and never on the TypeORM mapping behind it.
 */
export type Plain<T> = { [K in keyof T]: T[K] };

/** What a read model's queries need of the read side: the data source serving it now. */
export interface ReadModelSources {
  source(name: string): import('typeorm').DataSource;
}

/** A prepared lookup's answer: the row, and whether the serving generation changed since the last call. */
export type Lookup<Row> = import('../src/platform/awaitable').Awaitable<{ row: Row | undefined; switched: boolean }>;
