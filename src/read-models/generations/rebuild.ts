import type { EventStore, RecordedEvent } from '../../event-store/event-store.port';
import { beginBulkBuild, endBulkBuild } from './bulk-build';
import { catchUp } from './catch-up';
import type { Projection } from '../projection';
import type { ReadModelRegistry } from './read-model-registry';

export interface RebuildReport {
  name: string;
  version: number;
  generation: number;
  events: number;
  /** events it could not apply: dead-lettered and skipped (npm run projections -- dead-letters) */
  deadLettered: number;
  ms: number;
}

/**
 * Blue/green rebuild: a new generation is built from the start of the log in its own file while
 * the active one keeps serving (and keeps being updated by a running server); once it has caught
 * up with the head it becomes active in one registry transaction, and servers follow within a second.
 */
export async function rebuild(
  projection: Projection,
  store: EventStore,
  registry: ReadModelRegistry,
): Promise<RebuildReport> {
  const started = performance.now();
  const generation = await registry.create(projection.name, projection.version, new Date().toISOString());
  const opened = await registry.storage.open(projection, generation.file);
  let events = 0;
  let deadLettered = 0;
  // a poison event is set aside for this generation, as the live runner does: the build completes
  const onPoison = async (event: RecordedEvent, error: unknown, attempts: number) => {
    await registry.deadLetters.record({
      kind: 'projection',
      name: projection.name,
      version: projection.version,
      generation: generation.generation,
      event,
      error,
      attempts,
    });
    deadLettered++;
  };
  try {
    // nobody reads the new generation before it is activated: its full-text index is built in one pass (bulk-build.ts)
    await beginBulkBuild(opened.writer, projection);
    for (;;) {
      const result = await catchUp(opened.writer, projection, store, { onPoison });
      events += result.events;
      if (result.position >= (await store.headPosition())) break;
    }
    await endBulkBuild(opened.writer, projection);
  } catch (error) {
    await opened.close();
    await registry.retire(projection.name, projection.version, generation.generation);
    throw error;
  }
  await opened.close();
  // The generation it replaces is retired, not deleted: a running server may still write to it
  // until it switches (within a second), and deletes it then; otherwise the next start does.
  await registry.activate(projection.name, projection.version, generation.generation, new Date().toISOString());
  await registry.deadLetters.resolveSuperseded(projection.name, generation.generation);
  return {
    name: projection.name,
    version: projection.version,
    generation: generation.generation,
    events,
    deadLettered,
    ms: performance.now() - started,
  };
}
