import type { EntityManager, EntitySchema } from 'typeorm';
import type { RecordedEvent } from '../event-store/event-store.port';
import type { Rows } from './apply/rows';

/**
 * Writes what one event means for this read model, inside the batch's transaction: through `rows`
 * (the fast path for row writes and lookups; await each call) or `em` (all of TypeORM).
 */
export type ProjectionHandler<T = unknown> = (
  event: RecordedEvent<T>,
  em: EntityManager,
  rows: Rows,
) => Promise<void> | void;

/**
 * A read model: its tables (TypeORM entities), a version, and a handler per event type it reads.
 * Handlers write only this projection's tables. Bumping `version` builds the read model again,
 * from the start of the log, into a fresh file beside the serving one (see read-model-registry.ts).
 */
export interface Projection {
  name: string;
  version: number;
  /** entity classes (TypeORM constructs them with no arguments) or schemas */
  entities: Array<(new () => object) | EntitySchema>;
  /**
   * `never`: a handler typed for its own event's data fits here. The runner looks a handler up by
   * the event's type, so it only ever hands one the events it was written for.
   */
  handles: Record<string, ProjectionHandler<never>>;
  /**
   * SQL run once on a new generation file after its tables exist: what entities cannot declare
   * (full-text tables and the triggers that feed them).
   */
  setup?: string[];
  /** The same for a generation on PostgreSQL (postgres/open-postgres-read-model.ts). */
  postgresSetup?: string[];
  /**
   * SQLite: what a generation built from the start of the log leaves out while it catches up
   * (`leaveOut`, e.g. dropping the triggers that feed a full-text index row by row) and builds in
   * one pass before it serves (`build`, e.g. the index's `rebuild` and the triggers again): see
   * bulk-build.ts. Both run in one transaction each; `build` must leave the same tables as `setup`.
   */
  bulkBuild?: { leaveOut: string[]; build: string[] };
  /**
   * SQLite: applied on an apply thread of its own, beside the other read models' (thread-applier.ts):
   * for a read model whose cost per event is several times the others' together.
   */
  applyApart?: boolean;
}

const NAME = /^[a-z][a-z0-9-]{0,62}$/;

export function defineProjection(projection: Projection): Projection {
  if (!NAME.test(projection.name)) throw new Error(`projection name ${projection.name} must be kebab-case`);
  if (!Number.isInteger(projection.version) || projection.version < 1) {
    throw new Error(`projection ${projection.name}: version must be a positive integer`);
  }
  return projection;
}

/**
 * Typed handlers for one event union: `const on = handlerFor<AccountEvent>()` then
 * `on<'AccountCreated'>(async ({ data }, em) => ...)` gets `data` typed for that event.
 */
export function handlerFor<E extends { type: string; data: unknown }>() {
  return <T extends E['type']>(handler: ProjectionHandler<Extract<E, { type: T }>['data']>) => handler;
}
